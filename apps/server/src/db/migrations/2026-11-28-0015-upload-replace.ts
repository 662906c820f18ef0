import type { Kysely } from 'kysely';

/** Whether an upload replaces the live file of its name when it is placed (the old one goes to the trash). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('uploads').addColumn('replace_existing', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
