import type { Kysely } from 'kysely';

/** What offline downloads fetched, by source identity (final URL and validator), for instant completion. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('offline_sources')
    .addColumn('source_key', 'text', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_type_phase_created').on('tasks').columns(['type', 'phase', 'created_time']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
