/**
 * Every write to the local files table goes through here and is announced to the screens showing those rows, so
 * a screen keeps its rows in memory and never re-reads 100,000 of them because one changed.
 */
import { writeRows } from './chunk-writes';
import { rowIn, shelfOf, type Chunk, type ChunkKey } from './chunks';
import { localDb, type DriveDb } from './local-db';
import { fromStored, type LocalFile } from './stored-row';

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

/**
 * One page of a sync in one transaction: deletions, then rows put. The rows are announced at once, so a screen paints
 * a page from the network answer while it is stored, and again when stored; the promise settles when the transaction
 * commits, or rejects when it fails, keeping nothing of the page.
 */
export async function writeLocalPage(put: LocalFile[], deleted: string[]): Promise<void> {
  if (!put.length && !deleted.length) return;
  // Announced before the database is open: on a first visit creating it takes 40-50 ms the screen need not wait for.
  // A page IndexedDB then refuses was shown but is not kept; the sync fails and tries again.
  emit({ put, deleted });
  await writeRows({ put, deleted });
  // Again once stored: a screen that mounts between the two (a reload mid-sync, a layout swapped for a phone's) reads
  // the database before the page is in it and missed the first announcement. Commits come in order, so the last
  // announcement of a row is always of its newest stored version.
  emit({ put, deleted });
}

export async function putLocal(rows: LocalFile[]): Promise<void> {
  await writeRows({ put: rows });
  emit({ put: rows, deleted: [] });
}

export async function deleteLocal(ids: string[]): Promise<void> {
  await writeRows({ deleted: ids });
  emit({ put: [], deleted: ids });
}

/** Changes fields of stored rows; rows not stored are left out. */
export async function updateLocal(changes: { id: string; changes: Partial<LocalFile> }[]): Promise<void> {
  emit({ put: await writeRows({ update: changes }), deleted: [] });
}

/** Deletes the rows of a slice written before `stamp` (the server no longer lists them there). */
export async function deleteStale(userId: string, slice: LocalSlice, stamp: number): Promise<void> {
  const stale: string[] = [];
  await readSlice(userId, slice, (rows) => {
    for (const r of rows) if (r.local_sync_timestamp < stamp) stale.push(r.id);
  });
  if (stale.length) await deleteLocal(stale);
}

/** Deletes the user's rows written before `stamp`, wherever they are (the end of a full sync of the drive). */
export async function deleteStaleDrive(userId: string, stamp: number): Promise<void> {
  // Only chunks holding a row older than the sync can hold a stale one: found through their oldest row's stamp.
  const db = await localDb();
  const keys = await db.getAllKeysFromIndex('chunks', '[user_id+oldest]', IDBKeyRange.bound([userId, -Infinity], [userId, stamp], false, true));
  const stale: string[] = [];
  await eachChunk(db, keys, (c) => {
    for (const r of c.rows) if (r.local_sync_timestamp < stamp) stale.push(r.id);
  });
  if (stale.length) await deleteLocal(stale);
}

export type LocalSlice = { kind: 'folder'; parentId: string } | { kind: 'starred' };

/** Whether a row belongs to a slice. */
export const inSlice = (userId: string, slice: LocalSlice) => (f: LocalFile) =>
  f.user_id === userId && (slice.kind === 'folder' ? f.parent_id === slice.parentId : f.star === 1);

/** Reads the chunks under `keys` a few at a time, so no single task deserialises many thousands of rows. */
async function eachChunk(db: DriveDb, keys: ChunkKey[], each: (c: Chunk) => void, signal?: AbortSignal) {
  for (let i = 0; i < keys.length; i += CHUNKS_A_READ) {
    const tx = db.transaction('chunks');
    const found = await Promise.all(keys.slice(i, i + CHUNKS_A_READ).map((k) => tx.store.get(k)));
    if (signal?.aborted) return;
    for (const c of found) if (c) each(c);
  }
}

const CHUNKS_A_READ = 2;

/** Reads a slice, handing its rows over `chunk` at a time: the folder's shelf, or the chunks holding a star. */
export async function readSlice(
  userId: string,
  slice: LocalSlice,
  onChunk: (rows: LocalFile[]) => void,
  signal?: AbortSignal,
  chunk = 2000,
) {
  const db = await localDb();
  const parentId = slice.kind === 'folder' ? slice.parentId : null;
  const keys =
    parentId === null
      ? await db.getAllKeysFromIndex('chunks', '[user_id+stars]', IDBKeyRange.bound([userId, 1], [userId, Infinity]))
      : await db.getAllKeys('chunks', IDBKeyRange.bound([userId, shelfOf(parentId)], [userId, shelfOf(parentId), []]));
  const belongs = rowIn(userId, parentId);
  let rows: LocalFile[] = [];
  await eachChunk(
    db,
    keys,
    (c) => {
      for (const r of c.rows) {
        if (!belongs(r)) continue;
        rows.push(fromStored(r));
        if (rows.length >= chunk) {
          onChunk(rows);
          rows = [];
        }
      }
    },
    signal,
  );
  if (rows.length && !signal?.aborted) onChunk(rows);
}
