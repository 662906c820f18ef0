import type { Kysely } from 'kysely';

/** Share links: a row per link, the items it exposes, and counts kept exactly. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('pass_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('file_kind', 'text', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('file_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expiration_days', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('view_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('restore_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'bigint', (c) => c.notNull())
    .addColumn('updated_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shares_user_created').on('shares').columns(['user_id', 'created_time', 'id']).execute();

  await db.schema
    .createTable('share_files')
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_files_pk', ['share_id', 'file_id'])
    .execute();
  await db.schema.createIndex('share_files_file').on('share_files').columns(['file_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
