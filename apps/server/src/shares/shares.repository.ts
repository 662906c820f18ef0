/** Queries on share links. Owner calls are scoped by user id: another account's share reads as "not found". */
import { sql } from 'kysely';
import { PHASE, SHARE_STATUS } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { FileRow, ShareRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

export const shareNotFound = () => new HttpError(404, 'share_not_found', 'The share does not exist.');

export function findShare(db: Db, id: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The caller's shares among `ids` (cancelled ones excluded); any other id fails the whole call. */
export async function requireOwnShares(db: Db, userId: string, ids: string[]): Promise<ShareRow[]> {
  const unique = [...new Set(ids)];
  const rows = await db
    .selectFrom('shares')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', 'in', unique)
    .where('status', '!=', SHARE_STATUS.DELETED)
    .execute();
  if (rows.length !== unique.length) throw shareNotFound();
  return rows;
}

/** Ids of the items a share exposes, in the owner's order. */
export async function shareRootIds(db: Db, shareId: string): Promise<string[]> {
  const rows = await db.selectFrom('share_files').select('file_id').where('share_id', '=', shareId).orderBy('position').execute();
  return rows.map((r) => r.file_id);
}

/** The shared items still in the owner's drive (not trashed, not deleted), in the owner's order. */
export async function liveShareRoots(db: Db, share: ShareRow): Promise<FileRow[]> {
  return db
    .selectFrom('share_files')
    .innerJoin('files', 'files.id', 'share_files.file_id')
    .selectAll('files')
    .where('share_files.share_id', '=', share.id)
    .where('files.user_id', '=', share.user_id)
    .where('files.trashed', '=', 0)
    .where('files.phase', '=', PHASE.COMPLETE)
    .orderBy('share_files.position')
    .execute();
}

/** Adds one to a counter in the database itself, so concurrent visits are all counted. */
export async function bumpShareCount(db: Db, shareId: string, column: 'view_count' | 'restore_count'): Promise<void> {
  await db
    .updateTable('shares')
    .set({ [column]: sql`${sql.ref(column)} + 1` })
    .where('id', '=', shareId)
    .execute();
}

/** Files, folders and bytes below `rootIds` (live only), and whether any of them is flagged sensitive. */
export async function subtreeSummary(
  db: Db,
  userId: string,
  rootIds: string[],
): Promise<{ files: number; bytes: number; sensitive: boolean }> {
  if (rootIds.length === 0) return { files: 0, bytes: 0, sensitive: false };
  const { rows } = await sql<{ files: number | string | null; bytes: number | string | null; sensitive: number | string | null }>`
    WITH RECURSIVE sub(id) AS (
      SELECT id FROM files WHERE user_id = ${userId} AND id IN (${sql.join(rootIds)}) AND trashed = 0
      UNION ALL
      SELECT f.id FROM files f JOIN sub ON f.parent_id = sub.id WHERE f.user_id = ${userId} AND f.trashed = 0
    )
    SELECT SUM(CASE WHEN files.kind = 'drive#file' THEN 1 ELSE 0 END) AS files,
           SUM(CASE WHEN files.kind = 'drive#file' THEN files.size ELSE 0 END) AS bytes,
           MAX(files.sensitive) AS sensitive
    FROM files JOIN sub ON files.id = sub.id`.execute(db);
  const r = rows[0];
  return { files: Number(r?.files ?? 0), bytes: Number(r?.bytes ?? 0), sensitive: Number(r?.sensitive ?? 0) > 0 };
}
