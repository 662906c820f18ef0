import type { Kysely } from 'kysely';

/**
 * Reports of shares: a visitor's reason and words about a share (or one item in it), who reported when signed in, and
 * how the operator handled it (open, resolved, dismissed, with a note). The share's owner is kept on the row, so the
 * owner's erasure takes the reports of their shares along. Read newest first, whole or of one status (the queue),
 * and per share (handling one closes the share's other open reports). Shares gain an index on each of their view
 * and save counts: the console lists the most viewed and most saved without reading every share.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('share_id', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reporter_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('handled_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('handled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_reports_created').on('share_reports').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('share_reports_status').on('share_reports').columns(['status', 'created_at', 'id']).execute();
  await db.schema.createIndex('share_reports_share').on('share_reports').columns(['share_id', 'status']).execute();
  await db.schema.createIndex('share_reports_owner').on('share_reports').columns(['owner_id']).execute();
  await db.schema.createIndex('share_reports_reporter').on('share_reports').columns(['reporter_id']).execute();
  await db.schema.createIndex('shares_views').on('shares').columns(['view_count']).execute();
  await db.schema.createIndex('shares_saves').on('shares').columns(['restore_count']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
