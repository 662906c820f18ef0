import type { Kysely } from 'kysely';

/**
 * SHA-1 of stored content, for WebDAV sync clients (ownCloud/Nextcloud `oc:checksums`, which rclone compares): blobs
 * are named by BLAKE3, which no such client knows. Keyed by the content hash, so copies of a file share the row and
 * a row never goes stale; filled when a WebDAV PUT streams the bytes in (or a client asks for it to be computed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dav_checksums')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('sha1', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
