import { sql, type Kysely } from 'kysely';

/**
 * Dead properties have limits per file and per account: each row keeps its size, and an index on (user_id, size)
 * lets an account's count and total be read from the index alone at every PROPPATCH. Rows already there are measured
 * in characters, close enough to the bytes new rows are measured in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('dav_props').addColumn('size', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE dav_props SET size = length(ns) + length(name) + length(value)`.execute(db);
  await db.schema.createIndex('dav_props_user_size').on('dav_props').columns(['user_id', 'size']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
