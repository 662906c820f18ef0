import type { Kysely } from 'kysely';

/**
 * Media derived from stored content, keyed by the content hash so files with the same bytes share it:
 * probe results, thumbnails, transcode jobs and their HLS renditions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_info')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('info', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_info_pk', ['hash', 'kind'])
    .execute();

  await db.schema
    .createTable('media_thumbnails')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'text', (c) => c.notNull())
    .addColumn('thumb_hash', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_thumbnails_pk', ['hash', 'size'])
    .execute();

  await db.schema
    .createTable('media_jobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('lease_id', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('created_time', 'bigint', (c) => c.notNull())
    .addColumn('updated_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_jobs_phase_created').on('media_jobs').columns(['phase', 'created_time']).execute();

  await db.schema
    .createTable('media_renditions')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bandwidth', 'integer', (c) => c.notNull())
    .addColumn('has_audio', 'integer', (c) => c.notNull())
    .addColumn('scratch', 'text', (c) => c.notNull())
    .addColumn('playlist', 'text', (c) => c.notNull())
    .addColumn('segments', 'text', (c) => c.notNull())
    .addColumn('updated_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_renditions_pk', ['hash', 'name'])
    .execute();

  // Files placed lately, for starting transcodes on upload without scanning every file.
  await db.schema.createIndex('files_created').on('files').columns(['created_time']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
