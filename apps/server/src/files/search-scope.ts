/**
 * A search kept to one folder (`filters={"folder_id":{"eq":"<id>"}}`): the folder and every live folder below it,
 * found level by level through the (user, parent) index, as the other subtree walks do (see files.repository.ts).
 * Only folders are walked: the search itself then asks for items whose parent is one of them.
 */
import { FOLDER_KIND } from '@haul/shared';
import type { Db } from '../db/database.js';
import { badInput } from '../http/errors.js';
import { requireFile } from './files.repository.js';

/** Folders a scoped search may span; past this the person is asked to search all files instead. */
export const SEARCH_SCOPE_MAX_FOLDERS = 10_000;

/**
 * The ids of `folderId` and of the live folders below it. Another user's id (or none at all) is `file_not_found`,
 * exactly like a missing one; a file or a trashed folder is `invalid_argument`.
 */
export async function searchScopeFolders(db: Db, userId: string, folderId: string, max = SEARCH_SCOPE_MAX_FOLDERS): Promise<string[]> {
  const root = await requireFile(db, userId, folderId);
  if (root.kind !== FOLDER_KIND) throw badInput('filters.folder_id must name a folder.');
  if (root.trashed) throw badInput('filters.folder_id names a folder in the trash.');
  const out = [root.id];
  let level = [root.id];
  while (level.length) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 500) {
      const rows = await db
        .selectFrom('files')
        .select('id')
        .where('user_id', '=', userId)
        .where('parent_id', 'in', level.slice(i, i + 500))
        .where('kind', '=', FOLDER_KIND)
        .where('trashed', '=', 0)
        .execute();
      for (const r of rows) next.push(r.id);
    }
    out.push(...next);
    if (out.length > max) throw badInput(`This folder holds more than ${max} folders: search all files instead.`);
    level = next;
  }
  return out;
}
