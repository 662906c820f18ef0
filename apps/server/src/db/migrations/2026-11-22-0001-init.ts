import { type Kysely, sql } from 'kysely';

/** Accounts, files, blobs, events, tasks. Timestamps are epoch ms in bigint columns. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('storage_limit', 'bigint', (c) => c.notNull())
    .addColumn('premium_expire', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('password_updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('mime_type', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('file_extension', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('star', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('star_time', 'bigint')
    .addColumn('trashed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trash_group', 'text')
    .addColumn('trashed_at', 'bigint')
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_time', 'bigint', (c) => c.notNull())
    .addColumn('modified_time', 'bigint', (c) => c.notNull())
    .addColumn('changed_time', 'bigint', (c) => c.notNull())
    .execute();
  // Names are unique among the live children of a folder; the database enforces it against races.
  await sql`CREATE UNIQUE INDEX files_live_name ON files (user_id, parent_id, name) WHERE trashed = 0`.execute(db);
  await db.schema.createIndex('files_parent_mtime').on('files').columns(['user_id', 'parent_id', 'modified_time', 'id']).execute();
  await db.schema.createIndex('files_parent_name').on('files').columns(['user_id', 'parent_id', 'name', 'id']).execute();
  await db.schema.createIndex('files_parent_size').on('files').columns(['user_id', 'parent_id', 'size', 'id']).execute();
  await db.schema.createIndex('files_user_mtime').on('files').columns(['user_id', 'modified_time', 'id']).execute();
  await db.schema.createIndex('files_user_changed').on('files').columns(['user_id', 'changed_time', 'id']).execute();
  await db.schema.createIndex('files_trash_group').on('files').columns(['trash_group']).execute();
  await db.schema.createIndex('files_trashed_at').on('files').columns(['trashed_at']).execute();
  await db.schema.createIndex('files_hash').on('files').columns(['hash']).execute();

  await db.schema
    .createTable('file_tombstones')
    .addColumn('file_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('deleted_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_tombstones_user_time').on('file_tombstones').columns(['user_id', 'deleted_time', 'file_id']).execute();

  await db.schema
    .createTable('blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('ref_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blobs_unreferenced').on('blobs').columns(['ref_count', 'updated_at']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_time', 'bigint', (c) => c.notNull())
    .addColumn('updated_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_user_file_type').on('events').columns(['user_id', 'file_id', 'type']).unique().execute();
  await db.schema.createIndex('events_user_time').on('events').columns(['user_id', 'updated_time', 'id']).execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('file_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_time', 'bigint', (c) => c.notNull())
    .addColumn('updated_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tasks_user_time').on('tasks').columns(['user_id', 'created_time']).execute();

  await db.schema
    .createTable('system_kv')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
