import type { Kysely } from 'kysely';

/** The client's own id of an upload (the seeds' upload store id), so a repeated creation finds the same upload. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('client_key', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('uploads_client_key').on('uploads').columns(['user_id', 'client_key']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
