/**
 * The browser's copy of the drive: IndexedDB database `drive`, version 7 (seed 000 §3), through `idb`'s promise
 * wrapper. It is stored as 71: the schema was first created with Dexie, which multiplies its versions by ten (7 is
 * 70), and 7.1 is the same stores with the files indexed by what the app reads them by (user and folder, user and
 * star, sync time) and nothing else. Every index is worked out again on every put: with the eight of 7.0, the first
 * sync of a large drive spent most of its time in IndexedDB (bench/README.md, "web app: the first sync").
 *
 * The sync marks (localStorage `haul.sync.<user>`: what the copy holds and where the next sync starts) describe this
 * database's rows, so they are trusted only once this page has opened it (`localDbOpened`), and an open that has to
 * create the database (a first visit, or a copy the browser dropped) forgets them first: the engine then runs a full
 * sync. A database that cannot be opened or lacks a store is deleted and made again, the same way.
 */
import { openDB, unwrap, type DBSchema, type IDBPDatabase } from 'idb';
import type { StoredFile } from './stored-row';

export interface LocalTask {
  taskId: string;
  userId: string;
  status: string;
  taskType: string;
  [key: string]: unknown;
}

export interface DriveSchema extends DBSchema {
  files: {
    key: string;
    value: StoredFile;
    indexes: {
      local_sync_timestamp: number;
      '[user_id+parent_id+id]': [string, string, string];
      '[user_id+star+id]': [string, number, string];
    };
  };
  tasks: { key: string; value: LocalTask; indexes: { userId: string; status: string; taskType: string } };
  resumes: { key: string; value: { uploadId: string; [key: string]: unknown } };
  checkpoints: { key: string; value: { task_id: string; [key: string]: unknown } };
}

export type DriveDb = IDBPDatabase<DriveSchema>;

const VERSION = 71;

/** Each store's primary key and indexes; an index named `[a+b]` has the key path [a, b]. */
const STORES = {
  // A user's rows are the [user_id+parent_id+id] keys from [user] up to [user, []] (parent ids are strings).
  files: ['id', 'local_sync_timestamp', '[user_id+parent_id+id]', '[user_id+star+id]'],
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
          : raw.createObjectStore(name, { keyPath: primary });
        const keep: readonly string[] = indexes;
        for (const index of [...store.indexNames]) if (!keep.includes(index)) store.deleteIndex(index);
        for (const index of indexes) if (!store.indexNames.contains(index)) store.createIndex(index, keyPath(index));
      }
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
  const tx = (await localDb()).transaction(['files', 'tasks'], 'readwrite');
  const files = tx.objectStore('files');
  const tasks = tx.objectStore('tasks');
  const theirs = IDBKeyRange.bound([userId], [userId, []]);
  for (const id of await files.index('[user_id+parent_id+id]').getAllKeys(theirs)) void files.delete(id);
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
