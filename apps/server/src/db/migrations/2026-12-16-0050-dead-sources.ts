import { sql, type Kysely } from 'kysely';

/**
 * Sources remembered for blobs that were deleted before the purge job forgot them with their blobs: each only ever
 * served while its blob was stored. A torrent's .torrent is stored without a blob row, so its row stays.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM offline_sources WHERE source_key NOT LIKE 'bt:%:torrent'
    AND NOT EXISTS (SELECT 1 FROM blobs WHERE blobs.hash = offline_sources.hash)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
