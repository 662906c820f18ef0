/** Paths to the account's live files and folders, one name at a time through the (user, parent, name) index. */
import { FOLDER_KIND } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { FileRow } from '../db/schema.js';
import { ROOT_ID } from '../files/files.repository.js';

/** What a path names: the top of the drive, a live file or folder, or nothing. */
export type Resource = { kind: 'root'; id: typeof ROOT_ID } | { kind: 'item'; id: string; row: FileRow };

export const isFolder = (r: Resource) => r.kind === 'root' || r.row.kind === FOLDER_KIND;

/** The live child named `name` of folder `parentId`. */
export function childNamed(db: Db, userId: string, parentId: string, name: string): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('user_id', '=', userId)
    .where('parent_id', '=', parentId)
    .where('name', '=', name)
    .where('trashed', '=', 0)
    .executeTakeFirst();
}

/** The resource at `names`, or null when any step is missing (or a file stands where a folder should). */
export async function resolve(db: Db, userId: string, names: string[]): Promise<Resource | null> {
  let current: Resource = { kind: 'root', id: ROOT_ID };
  for (const name of names) {
    if (!isFolder(current)) return null;
    const row = await childNamed(db, userId, current.id, name);
    if (!row) return null;
    current = { kind: 'item', id: row.id, row };
  }
  return current;
}

/** The folder that holds `names` (its parent), or null when it does not exist or is a file. */
export async function resolveParent(db: Db, userId: string, names: string[]): Promise<Resource | null> {
  const parent = await resolve(db, userId, names.slice(0, -1));
  return parent && isFolder(parent) ? parent : null;
}

/** A page of the live children of a folder, by name, after `after` (null: from the first). */
export function childrenPage(db: Db, userId: string, folderId: string, after: string | null, limit: number): Promise<FileRow[]> {
  let q = db.selectFrom('files').selectAll().where('user_id', '=', userId).where('parent_id', '=', folderId).where('trashed', '=', 0);
  if (after !== null) q = q.where('name', '>', after);
  return q.orderBy('name').limit(limit).execute();
}
