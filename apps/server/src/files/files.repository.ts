/** Queries on a user's files. Every function is scoped by user id: another user's id reads as "not found". */
import { FOLDER_KIND, withSuffix } from '@haul/shared';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, FileRow } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';

export const ROOT_ID = '';

export function findFile(db: Db, userId: string, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

/** The user's file, or file_not_found; trashed ones too unless `live` is asked. */
export async function requireFile(db: Db, userId: string, id: string, opts: { live?: boolean } = {}): Promise<FileRow> {
  const row = await findFile(db, userId, id);
  if (!row) throw notFound();
  if (opts.live && row.trashed) throw new HttpError(400, 'file_in_recycle_bin', 'The file has been deleted (it is in the trash).');
  return row;
}

/**
 * Where-clause of the user's files among `ids`, for statements on a list of ids. The ids lead through the primary key
 * and the owner is checked on each row found: `user_id || ''` is no index column to SQLite's planner. Given a plain
 * `user_id = ?` next to a list of even 20 ids, SQLite (without statistics, as here) takes any (user_id, …) index and
 * reads every file of the user, so trashing or deleting a folder cost as much as the drive was large. PostgreSQL
 * takes the primary key either way.
 */
export const userFilesIn =
  (userId: string, ids: readonly string[]) =>
  (eb: ExpressionBuilder<Database, 'files'>) =>
    eb.and([eb('id', 'in', ids), eb(sql<string>`${eb.ref('user_id')} || ''`, '=', userId)]);

/** The user's files among `ids`; any id that is not theirs fails the whole call as not found. */
export async function requireFiles(db: Db, userId: string, ids: string[]): Promise<FileRow[]> {
  const unique = [...new Set(ids)];
  const rows = await db.selectFrom('files').selectAll().where(userFilesIn(userId, unique)).execute();
  if (rows.length !== unique.length) throw notFound('One or more files do not exist.');
  return rows;
}

/** A folder that can receive children: the root, or a live folder of the user. */
export async function requireTargetFolder(db: Db, userId: string, id: string): Promise<FileRow | null> {
  if (id === ROOT_ID) return null;
  const row = await requireFile(db, userId, id);
  if (row.kind !== FOLDER_KIND) throw new HttpError(400, 'invalid_argument', 'The target is not a folder.');
  if (row.trashed) throw new HttpError(400, 'file_in_recycle_bin', 'The target folder is in the trash.');
  return row;
}

export async function nameTaken(db: Db, userId: string, parentId: string, name: string, exceptId = ''): Promise<boolean> {
  const row = await db
    .selectFrom('files')
    .select('id')
    .where('user_id', '=', userId)
    .where('parent_id', '=', parentId)
    .where('name', '=', name)
    .where('trashed', '=', 0)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The live children of a folder that hold one of `names` (the folder must be a live one of the user's). */
export async function liveNamed(db: Db, userId: string, parentId: string, names: string[]): Promise<Pick<FileRow, 'id' | 'name' | 'kind'>[]> {
  await requireTargetFolder(db, userId, parentId);
  const out: Pick<FileRow, 'id' | 'name' | 'kind'>[] = [];
  await inChunks([...new Set(names)], 500, async (chunk) => {
    out.push(
      ...(await db
        .selectFrom('files')
        .select(['id', 'name', 'kind'])
        .where('user_id', '=', userId)
        .where('parent_id', '=', parentId)
        .where('trashed', '=', 0)
        .where('name', 'in', chunk)
        .execute()),
    );
  });
  return out;
}

/** `name`, or "name (1)", "name (2)"… whichever is free among the live children of the folder. */
export async function freeName(db: Db, userId: string, parentId: string, name: string, exceptId = ''): Promise<string> {
  if (!(await nameTaken(db, userId, parentId, name, exceptId))) return name;
  for (let i = 1; i < 10000; i++) {
    const candidate = withSuffix(name, String(i));
    if (!(await nameTaken(db, userId, parentId, candidate, exceptId))) return candidate;
  }
  throw new HttpError(409, 'file_duplicated_name', 'Too many files with this name.');
}

/**
 * The given items and everything below them, level by level: one query per level (per 500 folders) through the
 * (user, parent) index. A recursive CTE reads shorter, but its plan is fixed before the first level is known, and
 * both SQLite and PostgreSQL (with fresh statistics) chose to scan every file of the user once per folder there.
 */
async function walkDown<R extends { id: string; kind: string }>(
  rootIds: string[],
  fetch: (column: 'id' | 'parent_id', ids: string[]) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  const seen = new Set<string>();
  let level = rootIds.length ? await fetch('id', [...new Set(rootIds)]) : [];
  while (level.length) {
    const fresh = level.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    out.push(...fresh);
    const folders = fresh.filter((r) => r.kind === FOLDER_KIND).map((r) => r.id);
    level = [];
    for (let i = 0; i < folders.length; i += 500) level.push(...(await fetch('parent_id', folders.slice(i, i + 500))));
  }
  return out;
}

/** A level of walkDown: the items themselves by id, or the children of folders through the (user, parent) index. */
const byColumn = (userId: string, column: 'id' | 'parent_id', ids: string[]) => (eb: ExpressionBuilder<Database, 'files'>) =>
  column === 'id' ? userFilesIn(userId, ids)(eb) : eb.and([eb('user_id', '=', userId), eb('parent_id', 'in', ids)]);

/** Ids of the given items and everything below them, trashed or not; `liveOnly` skips trashed descendants. */
export async function subtreeIds(db: Db, userId: string, rootIds: string[], liveOnly = false): Promise<string[]> {
  const rows = await walkDown(rootIds, (column, ids) => {
    let q = db.selectFrom('files').select(['id', 'kind']).where(byColumn(userId, column, ids));
    if (liveOnly && column === 'parent_id') q = q.where('trashed', '=', 0);
    return q.execute();
  });
  return rows.map((r) => r.id);
}

/** The chain of folders from the root down to `id` (inclusive). */
export async function ancestorChain(db: Db, userId: string, id: string): Promise<FileRow[]> {
  const chain: FileRow[] = [];
  let current = await requireFile(db, userId, id);
  chain.push(current);
  const seen = new Set([current.id]);
  while (current.parent_id !== ROOT_ID) {
    const parent = await findFile(db, userId, current.parent_id);
    if (!parent || seen.has(parent.id)) break;
    seen.add(parent.id);
    chain.push(parent);
    current = parent;
  }
  return chain.reverse();
}

/** Runs `fn` over `items` in slices, for statements with long IN lists. */
export async function inChunks<T>(items: T[], size: number, fn: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await fn(items.slice(i, i + size));
}

/** Full rows of the given items and everything below them; `liveOnly` skips trashed descendants. */
export async function subtreeRows(db: Db, userId: string, rootIds: string[], liveOnly: boolean): Promise<FileRow[]> {
  return walkDown(rootIds, (column, ids) => {
    let q = db.selectFrom('files').selectAll().where(byColumn(userId, column, ids));
    if (liveOnly && column === 'parent_id') q = q.where('trashed', '=', 0);
    return q.execute();
  });
}

/** What a share's summary needs of each item below `rootIds`: five columns, not whole rows (a fifth of the reading). */
export type SubtreeFacts = Pick<FileRow, 'id' | 'kind' | 'size' | 'sensitive' | 'trashed'>;

/** subtreeRows with only the columns of SubtreeFacts. */
export async function subtreeFacts(db: Db, userId: string, rootIds: string[], liveOnly: boolean): Promise<SubtreeFacts[]> {
  return walkDown(rootIds, (column, ids) => {
    let q = db.selectFrom('files').select(['id', 'kind', 'size', 'sensitive', 'trashed']).where(byColumn(userId, column, ids));
    if (liveOnly && column === 'parent_id') q = q.where('trashed', '=', 0);
    return q.execute();
  });
}
