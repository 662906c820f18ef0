import type { Kysely } from 'kysely';

/**
 * Heartbeats of the running processes (ops/heartbeat.ts): each serve, worker or all process keeps one row, written
 * every 30 s and removed on a graceful stop, so the console shows which are alive; rows not seen for a day are purged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('process_heartbeats')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('host', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('process_heartbeats_seen').on('process_heartbeats').columns(['seen_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
