import type { Kysely } from 'kysely';

/**
 * What each account moved per quota period: one row per (account, kind, period), changed only by conditional
 * increments, so parallel transfers in any process cannot together pass a limit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('traffic_usage')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // upload, offline, download (bytes) or offline_tasks (a count).
    .addColumn('kind', 'text', (c) => c.notNull())
    // A calendar month (2026-11) or day (2026-11-29) in the operator's time zone.
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('traffic_usage_pk', ['user_id', 'kind', 'period'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
