/**
 * The browser's copy of the drive: IndexedDB database `drive` (seed 000 §3 describes the hosted client's layout, one
 * row per file; this copy keeps the same rows in chunks, chunks.ts), through `idb`'s promise wrapper. Version 80 holds
 * the files as chunks and their ids; versions 70 (made with Dexie, which multiplies versions by ten) and 71 held one
 * record per file in a `files` store, and opening one of those moves its rows into chunks in the upgrade, keeping
 * the sync marks: the copy stays whole, offline too.
 *
 * The sync marks (localStorage `haul.sync.<user>`: what the copy holds and where the next sync starts) describe this
 * database's rows, so they are trusted only once this page has opened it (`localDbOpened`), and an open that has to
 * create the database (a first visit, or a copy the browser dropped) forgets them first: the engine then runs a full
 * sync. A database that cannot be opened or lacks a store is deleted and made again, the same way.
 */
import { openDB, unwrap, type DBSchema, type IDBPDatabase } from 'idb';
import { idsOf, packRows, type Chunk, type ChunkIds, type ChunkKey } from './chunks';
import { fromStored, toStored, type StoredFile } from './stored-row';

export interface LocalTask {
  taskId: string;
  userId: string;
  status: string;
  taskType: string;
  [key: string]: unknown;
}

export interface DriveSchema extends DBSchema {
  chunks: { key: ChunkKey; value: Chunk; indexes: { '[user_id+stars]': [string, number]; '[user_id+oldest]': [string, number] } };
  chunk_ids: { key: ChunkKey; value: ChunkIds };
  /** `chunks`: the generation of the chunks, one more at every write (chunk-writes.ts). */
  local_meta: { key: string; value: { key: string; gen: number } };
  tasks: { key: string; value: LocalTask; indexes: { userId: string; status: string; taskType: string } };
  resumes: { key: string; value: { uploadId: string; [key: string]: unknown } };
  checkpoints: { key: string; value: { task_id: string; [key: string]: unknown } };
}

export type DriveDb = IDBPDatabase<DriveSchema>;

const VERSION = 80;

/** Each store's primary key and indexes; an index named `[a+b]` has the key path [a, b]. */
const STORES = {
  // A user's chunks are the keys from [user] up to [user, []] (an array sorts after every number).
  chunks: ['[user_id+shelf+n]', '[user_id+stars]', '[user_id+oldest]'],
  chunk_ids: ['[user_id+shelf+n]'],
  local_meta: ['key'],
  tasks: ['taskId', 'userId', 'status', 'taskType'],
  resumes: ['uploadId'],
  checkpoints: ['task_id'],
} as const;

const keyPath = (name: string) => (name.startsWith('[') ? name.slice(1, -1).split('+') : name);

const MARKS_PREFIX = 'haul.sync.';

let opening: Promise<DriveDb> | null = null;
let opened = false;

/** Whether this page has the database open: until then the sync marks may describe rows that are gone. */
export const localDbOpened = () => opened;

/** Every user's sync marks, forgotten: the rows they describe are not in the database. */
function forgetSyncMarks() {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key?.startsWith(MARKS_PREFIX)) localStorage.removeItem(key);
  }
}

/** The open database; every caller waits for the same open (and its creation on a first visit). */
export function localDb(): Promise<DriveDb> {
  opening ??= openOrRemake().then((db) => {
    opened = true;
    return db;
  });
  opening.catch(() => (opening = null));
  return opening;
}

/** Opens the database; one that fails to open or lacks a store (unreadable) is deleted and made again once. */
async function openOrRemake(): Promise<DriveDb> {
  let db: DriveDb | null = null;
  try {
    db = await openDrive();
    if (Object.keys(STORES).every((name) => db!.objectStoreNames.contains(name as keyof typeof STORES))) return db;
  } catch {
    /* made again below */
  }
  db?.close();
  await deleteDrive();
  return openDrive();
}

function openDrive(): Promise<DriveDb> {
  return openDB<DriveSchema>('drive', VERSION, {
    upgrade(db, old, _new, tx) {
      // Made now (a first visit, or a copy the browser dropped or that could not be read): no marks hold.
      if (old === 0) forgetSyncMarks();
      // Creates what is missing and drops indexes no longer kept, so a database made by an earlier schema ends up
      // with exactly these stores' indexes; the rows stay.
      const raw = unwrap(db);
      for (const [name, [primary, ...indexes]] of Object.entries(STORES)) {
        const store = raw.objectStoreNames.contains(name)
          ? unwrap(tx).objectStore(name)
          : raw.createObjectStore(name, { keyPath: keyPath(primary) });
        const keep: readonly string[] = indexes;
        for (const index of [...store.indexNames]) if (!keep.includes(index)) store.deleteIndex(index);
        for (const index of indexes) if (!store.indexNames.contains(index)) store.createIndex(index, keyPath(index));
      }
      const rawTx = unwrap(tx);
      // A new generation, never one a locator made from an earlier copy could hold.
      if (old < 80) rawTx.objectStore('local_meta').put({ key: 'chunks', gen: Math.floor(Math.random() * 2 ** 30) });
      if (raw.objectStoreNames.contains('files')) moveRowsIntoChunks(raw, rawTx);
    },
    // Another tab opening a newer version: step aside rather than block it, and open again on the next call.
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
      opening = null;
      opened = false;
    },
    terminated() {
      opening = null;
      opened = false;
    },
  });
}

/** The rows of a copy kept one record per file (versions 70 and 71), packed into chunks; then that store goes. */
function moveRowsIntoChunks(raw: IDBDatabase, tx: IDBTransaction) {
  const read = tx.objectStore('files').getAll();
  read.onsuccess = () => {
    const chunks = tx.objectStore('chunks');
    const ids = tx.objectStore('chunk_ids');
    // Dexie's rows were kept whole: stored again without the fields at their usual value.
    for (const c of packRows((read.result as StoredFile[]).map((r) => toStored(fromStored(r))))) {
      chunks.put(c);
      ids.put(idsOf(c));
    }
    raw.deleteObjectStore('files');
  };
}

function deleteDrive(): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = indexedDB.deleteDatabase('drive');
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
  });
}

/** Closes and deletes the database (tests: a first visit again). */
export async function deleteLocalDb(): Promise<void> {
  const current = opening;
  opening = null;
  opened = false;
  if (current) (await current.catch(() => null))?.close();
  await deleteDrive();
}

/** Forgets everything kept for a user (sign-out, or another account signing in on this browser). */
export async function clearLocalUser(userId: string): Promise<void> {
  // The sync marks go with the rows: a later sign-in starts from a full sync.
  localStorage.removeItem(`${MARKS_PREFIX}${userId}`);
  const tx = (await localDb()).transaction(['chunks', 'chunk_ids', 'local_meta', 'tasks'], 'readwrite');
  const theirs = IDBKeyRange.bound([userId], [userId, []]);
  void tx.objectStore('chunks').delete(theirs);
  void tx.objectStore('chunk_ids').delete(theirs);
  // A new generation: every tab's locator of ids (chunk-writes.ts) is made again before its next write.
  const meta = await tx.objectStore('local_meta').get('chunks');
  void tx.objectStore('local_meta').put({ key: 'chunks', gen: (meta?.gen ?? 0) + 1 });
  const tasks = tx.objectStore('tasks');
  for (const id of await tasks.index('userId').getAllKeys(userId)) void tasks.delete(id);
  await tx.done;
}

/** The transfer list's tasks kept across reloads (uploads). */
export async function saveLocalTask(task: LocalTask): Promise<void> {
  await (await localDb()).put('tasks', task);
}

export async function forgetLocalTasks(ids: string[]): Promise<void> {
  const tx = (await localDb()).transaction('tasks', 'readwrite');
  await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
}

export async function localTasksOf(userId: string): Promise<LocalTask[]> {
  return (await localDb()).getAllFromIndex('tasks', 'userId', userId);
}
