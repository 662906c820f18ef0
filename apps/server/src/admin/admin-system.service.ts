/** What the console says of the install itself: the version, the database and blob store, and the last backup. */
import type { AppContext } from '../context.js';
import { haulVersion, lastBackup } from '../backup/manifest.js';

/** The version, where data lives, and the last backup's record (null before the first), without its folder's path. */
export async function systemStatus(ctx: AppContext) {
  const last = await lastBackup(ctx.db);
  return {
    version: haulVersion() ?? '',
    database: ctx.dialect,
    blob_store: ctx.config.blobStore,
    last_backup: last && {
      taken_at: last.taken_at,
      finished_at: last.finished_at,
      bytes: String(last.bytes),
      database_bytes: String(last.database_bytes),
      blob_count: String(last.blob_count),
      blob_bytes: String(last.blob_bytes),
      blob_store: last.blob_store,
      complete: last.complete,
    },
  };
}
