import type { Kysely } from 'kysely';

/** Resumable uploads in flight, and the sample id (cid) of each blob for the large-file pre-check. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('declared_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_user').on('uploads').column('user_id').execute();
  await db.schema.createIndex('uploads_expires').on('uploads').column('expires_at').execute();
  await db.schema.createIndex('tasks_user_type_phase').on('tasks').columns(['user_id', 'type', 'phase']).execute();

  await db.schema.alterTable('blobs').addColumn('cid', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('blobs_cid').on('blobs').columns(['cid', 'size']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
