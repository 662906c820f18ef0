/**
 * Every write to the local files table goes through here and is announced to the screens showing those rows, so
 * a screen keeps its rows in memory and never re-reads 100,000 of them because one changed.
 */
import { unwrap } from 'idb';
import { localDb } from './local-db';
import { fromStored, toStored, type LocalFile } from './stored-row';

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

/** Rows put in one go: about 10 ms of the main thread (each put copies its row and works out its index keys). */
const PUT_SLICE = 100;

/**
 * One page of a sync in one IndexedDB transaction: deletions, then rows put, without awaiting each request. It goes
 * straight to IndexedDB's own requests, without a promise per row (the rows are many, the pages few). The puts are
 * queued 100 at a time, the next hundred from the last one's success callback (the transaction stays open, and the
 * page gets input and frames in between), so a page of 500 is no 40 ms task. The rows are announced at once,
 * so a screen paints a page from the network answer while it is stored, and again when stored;
 * the promise settles when the transaction commits, or rejects when it fails, keeping nothing of the page.
 */
export async function writeLocalPage(put: LocalFile[], deleted: string[]): Promise<void> {
  if (!put.length && !deleted.length) return;
  // Announced before the database is open: on a first visit creating it takes 40-50 ms the screen need not wait for.
  // A page IndexedDB then refuses (a bad key) was shown but is not kept; the sync fails and tries again.
  emit({ put, deleted });
  // localDb() settles once the database is created or upgraded: no other transaction may start before.
  const tx = unwrap(await localDb()).transaction('files', 'readwrite', { durability: 'relaxed' });
  let failure: unknown = null;
  const done = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(failure ?? tx.error ?? new DOMException('The write was aborted.', 'AbortError'));
  });
  const store = tx.objectStore('files');
  let i = 0;
  const queue = () => {
    try {
      let last: IDBRequest | undefined;
      for (const end = Math.min(put.length, i + PUT_SLICE); i < end; i++) last = store.put(toStored(put[i]!));
      if (last && i < put.length) last.onsuccess = queue;
    } catch (err) {
      failure = err; // a row IndexedDB refuses (a bad key): none of the page is kept
      tx.abort();
    }
  };
  for (const id of deleted) store.delete(id);
  queue();
  if (failure) {
    done.catch(() => undefined);
    throw failure;
  }
  // Again once stored: a screen that mounts between the two (a reload mid-sync, a layout swapped for a phone's) reads
  // the database before the page is in it and missed the first announcement. Commits come in order, so the last
  // announcement of a row is always of its newest stored version.
  return done.then(() => emit({ put, deleted }));
}

export async function putLocal(rows: LocalFile[]): Promise<void> {
  const tx = (await localDb()).transaction('files', 'readwrite');
  await Promise.all([...rows.map((r) => tx.store.put(toStored(r))), tx.done]);
  emit({ put: rows, deleted: [] });
}

export async function deleteLocal(ids: string[]): Promise<void> {
  const tx = (await localDb()).transaction('files', 'readwrite');
  await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
  emit({ put: [], deleted: ids });
}

/** Changes fields of stored rows; rows not stored are left out. */
export async function updateLocal(changes: { id: string; changes: Partial<LocalFile> }[]): Promise<void> {
  const tx = (await localDb()).transaction('files', 'readwrite');
  const put: LocalFile[] = [];
  for (const c of changes) {
    const row = await tx.store.get(c.id);
    if (!row) continue;
    const next = { ...fromStored(row), ...c.changes };
    put.push(next);
    void tx.store.put(toStored(next));
  }
  await tx.done;
  emit({ put, deleted: [] });
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
  // Only rows older than the sync can be stale: one cursor over the stamp index, not the whole drive.
  const tx = unwrap(await localDb()).transaction('files', 'readonly');
  const req = tx.objectStore('files').index('local_sync_timestamp').openCursor(IDBKeyRange.upperBound(stamp, true));
  const stale = await new Promise<string[]>((resolve, reject) => {
    const ids: string[] = [];
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor) return resolve(ids);
      if ((cursor.value as LocalFile).user_id === userId) ids.push(cursor.primaryKey as string);
      cursor.continue();
    };
    req.onerror = () => reject(req.error);
  });
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
  signal?: AbortSignal,
  chunk = 2000,
) {
  const [index, prefix] =
    slice.kind === 'folder'
      ? (['[user_id+parent_id+id]', [userId, slice.parentId]] as const)
      : (['[user_id+star+id]', [userId, 1]] as const);
  const db = await localDb();
  let after: string = '';
  for (;;) {
    // An array sorts after every string: [...prefix, []] bounds the slice's ids from above.
    const range = IDBKeyRange.bound([...prefix, after], [...prefix, []], after !== '', true);
    const rows = (await db.getAllFromIndex('files', index, range, chunk)).map(fromStored);
    if (signal?.aborted) return;
    if (rows.length) onChunk(rows);
    if (rows.length < chunk) return;
    after = rows[rows.length - 1]!.id;
  }
}
