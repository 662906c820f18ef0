import type { Kysely } from 'kysely';

/**
 * Feedback to the operator: a person's message, the page it is about, an optional screenshot (a blob, counted in
 * `blobs.ref_count` like a file's bytes, so backups, reconciliation and the purge know it), its status (open,
 * answered, closed) and the operator's answer. Read by author newest first (the person's list), and by time, whole
 * or of one status (the operator's list).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('screenshot_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('screenshot_type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('screenshot_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('answered_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('answered_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_user').on('feedback').columns(['user_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('feedback_created').on('feedback').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('feedback_status').on('feedback').columns(['status', 'created_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
