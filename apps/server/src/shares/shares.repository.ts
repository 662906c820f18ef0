/** Queries on share links. Owner calls are scoped by user id: another account's share reads as "not found". */
import { sql } from 'kysely';
import { FILE_KIND, PHASE, SHARE_STATUS } from '@haul/shared';
import { subtreeFacts } from '../files/files.repository.js';
import type { Db } from '../db/database.js';
import type { FileRow, ShareRow } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

export const shareNotFound = () => new HttpError(404, 'share_not_found', 'The share does not exist.');

export function findShare(db: Db, id: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A share with its owner's name and the ids of its items, in one query (every visit starts here). */
export async function loadShare(db: Db, id: string): Promise<{ share: ShareRow; ownerName: string; rootIds: string[] } | undefined> {
  const rows = await db
    .selectFrom('shares')
    .innerJoin('users', 'users.id', 'shares.user_id')
    .leftJoin('share_files', 'share_files.share_id', 'shares.id')
    .selectAll('shares')
    .select(['users.name as owner_name', 'users.deleted_at as owner_deleted_at', 'share_files.file_id', 'share_files.position'])
    .where('shares.id', '=', id)
    .execute();
  if (rows.length === 0) return undefined;
  const { owner_name, owner_deleted_at, file_id: _f, position: _p, ...share } = rows[0]!;
  // Deleting an account cancels its shares; one made while the deletion was being recorded is cancelled here.
  if (owner_deleted_at !== null) share.status = SHARE_STATUS.DELETED;
  const rootIds = rows
    .filter((r) => r.file_id !== null)
    .sort((a, b) => Number(a.position) - Number(b.position))
    .map((r) => r.file_id!);
  return { share: share as ShareRow, ownerName: owner_name, rootIds };
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

/**
 * The shared items still in the owner's drive (not trashed, not deleted), in the owner's order. The share's rows lead
 * and each file is found by primary key, its owner checked as `user_id || ''` (see userFilesIn): given a plain
 * `user_id = ?`, SQLite started from the owner's files and read the whole drive at every visit.
 */
export async function liveShareRoots(db: Db, share: ShareRow): Promise<FileRow[]> {
  return db
    .selectFrom('share_files')
    .innerJoin('files', 'files.id', 'share_files.file_id')
    .selectAll('files')
    .where('share_files.share_id', '=', share.id)
    .where(sql<string>`files.user_id || ''`, '=', share.user_id)
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

/** Files and bytes below `rootIds` (live only), and whether any of them is flagged sensitive. */
export async function subtreeSummary(
  db: Db,
  userId: string,
  rootIds: string[],
): Promise<{ files: number; bytes: number; sensitive: boolean }> {
  const rows = (await subtreeFacts(db, userId, rootIds, true)).filter((r) => !r.trashed);
  const files = rows.filter((r) => r.kind === FILE_KIND);
  return { files: files.length, bytes: files.reduce((n, r) => n + r.size, 0), sensitive: rows.some((r) => r.sensitive) };
}
