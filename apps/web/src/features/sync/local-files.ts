/**
 * Every write to the local files table goes through here and is announced to the screens showing those rows, so
 * a screen keeps its rows in memory and never re-reads 100,000 of them because one changed.
 */
import Dexie, { type Collection } from 'dexie';
import { localDb, type LocalFile } from './local-db';

export interface LocalChange {
  put: LocalFile[];
  deleted: string[];
}

const listeners = new Set<(c: LocalChange) => void>();

export function onLocalChange(listener: (c: LocalChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(c: LocalChange) {
  if (c.put.length || c.deleted.length) listeners.forEach((l) => l(c));
}

export async function putLocal(rows: LocalFile[]): Promise<void> {
  await localDb.files.bulkPut(rows);
  emit({ put: rows, deleted: [] });
}

export async function deleteLocal(ids: string[]): Promise<void> {
  await localDb.files.bulkDelete(ids);
  emit({ put: [], deleted: ids });
}

export async function updateLocal(changes: { id: string; changes: Partial<LocalFile> }[]): Promise<void> {
  await localDb.files.bulkUpdate(changes.map((c) => ({ key: c.id, changes: c.changes })));
  const rows = await localDb.files.bulkGet(changes.map((c) => c.id));
  emit({ put: rows.filter((r): r is LocalFile => !!r), deleted: [] });
}

/** Deletes the rows of a slice written before `stamp` (the server no longer lists them there). */
export async function deleteStale(slice: Collection<LocalFile, string, unknown>, stamp: number): Promise<void> {
  const stale = (await slice.and((f) => f.local_sync_timestamp < stamp).primaryKeys()) as string[];
  if (stale.length) await deleteLocal(stale);
}

export type LocalSlice = { kind: 'folder'; parentId: string } | { kind: 'starred' };

/** Whether a row belongs to a slice. */
export const inSlice = (userId: string, slice: LocalSlice) => (f: LocalFile) =>
  f.user_id === userId && (slice.kind === 'folder' ? f.parent_id === slice.parentId : f.star === 1);

/** Reads a slice in chunks in key order, so no single task deserialises 100,000 rows. */
export async function readSlice(
  userId: string,
  slice: LocalSlice,
  onChunk: (rows: LocalFile[]) => void,
  signal: AbortSignal,
  chunk = 2000,
) {
  const [index, prefix] =
    slice.kind === 'folder'
      ? (['[user_id+parent_id+id]', [userId, slice.parentId]] as const)
      : (['[user_id+star+id]', [userId, 1]] as const);
  let after: string = '';
  for (;;) {
    const rows = await localDb.files
      .where(index)
      .between([...prefix, after], [...prefix, Dexie.maxKey], after === '', true)
      .limit(chunk)
      .toArray();
    if (signal.aborted) return;
    if (rows.length) onChunk(rows);
    if (rows.length < chunk) return;
    after = rows[rows.length - 1]!.id;
  }
}
