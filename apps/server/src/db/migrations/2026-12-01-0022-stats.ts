import type { Kysely } from 'kysely';

/**
 * Usage statistics the apps report (seed 001 "Statistics"): counts per day and event name only, nothing about who, so
 * the operator learns how often a preview hit its limit or an upload failed without a log of people.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stat_counts')
    // A calendar day in the operator's time zone (2026-12-01).
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_counts_pk', ['day', 'event'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
