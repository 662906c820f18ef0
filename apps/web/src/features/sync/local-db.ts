/**
 * The browser's copy of the drive: IndexedDB database `drive`, version 7 (seed 000 §3), through `idb`'s promise
 * wrapper. Version 7 is stored as 70: the schema was first created with Dexie, which multiplies its versions by ten,
 * and browsers that hold it must open it without an upgrade.
 */
import { openDB, unwrap, type DBSchema, type IDBPDatabase } from 'idb';
import type { DriveFile } from '@haul/shared';

export interface LocalFile extends DriveFile {
  /** When a sync (or a change made here) last wrote this row (epoch ms); rows of a synced slice older than the sync's start are stale. */
  local_sync_timestamp: number;
}

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
    value: LocalFile;
    indexes: {
      user_id: string;
      parent_id: string;
      star: number;
      local_sync_timestamp: number;
      '[user_id+parent_id]': [string, string];
      '[user_id+star]': [string, number];
      '[user_id+parent_id+id]': [string, string, string];
      '[user_id+star+id]': [string, number, string];
    };
  };
  tasks: { key: string; value: LocalTask; indexes: { userId: string; status: string; taskType: string } };
  resumes: { key: string; value: { uploadId: string; [key: string]: unknown } };
  checkpoints: { key: string; value: { task_id: string; [key: string]: unknown } };
}

export type DriveDb = IDBPDatabase<DriveSchema>;

const VERSION = 70;

/** Each store's primary key and indexes; an index named `[a+b]` has the key path [a, b]. */
const STORES = {
  files: ['id', 'user_id', 'parent_id', 'star', 'local_sync_timestamp', '[user_id+parent_id]', '[user_id+star]', '[user_id+parent_id+id]', '[user_id+star+id]'],
  tasks: ['taskId', 'userId', 'status', 'taskType'],
  resumes: ['uploadId'],
  checkpoints: ['task_id'],
} as const;

const keyPath = (name: string) => (name.startsWith('[') ? name.slice(1, -1).split('+') : name);

let opening: Promise<DriveDb> | null = null;

/** The open database; every caller waits for the same open (and its creation on a first visit). */
export function localDb(): Promise<DriveDb> {
  opening ??= openDB<DriveSchema>('drive', VERSION, {
    upgrade(db, _old, _new, tx) {
      // Creates what is missing, so a database made by an earlier schema ends up with every store and index.
      const raw = unwrap(db);
      for (const [name, [primary, ...indexes]] of Object.entries(STORES)) {
        const store = raw.objectStoreNames.contains(name)
          ? unwrap(tx).objectStore(name)
          : raw.createObjectStore(name, { keyPath: primary });
        for (const index of indexes) if (!store.indexNames.contains(index)) store.createIndex(index, keyPath(index));
      }
    },
    // Another tab opening a newer version: step aside rather than block it, and open again on the next call.
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
      opening = null;
    },
    terminated() {
      opening = null;
    },
  });
  opening.catch(() => (opening = null));
  return opening;
}

/** Closes and deletes the database (tests: a first visit again). */
export async function deleteLocalDb(): Promise<void> {
  const current = opening;
  opening = null;
  if (current) (await current.catch(() => null))?.close();
  await new Promise<void>((resolve, reject) => {
    const req = indexedDB.deleteDatabase('drive');
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
  });
}

/** Forgets everything kept for a user (sign-out, or another account signing in on this browser). */
export async function clearLocalUser(userId: string): Promise<void> {
  // The sync marks go with the rows: a later sign-in starts from a full sync.
  localStorage.removeItem(`haul.sync.${userId}`);
  const tx = (await localDb()).transaction(['files', 'tasks'], 'readwrite');
  const files = tx.objectStore('files');
  const tasks = tx.objectStore('tasks');
  for (const id of await files.index('user_id').getAllKeys(userId)) void files.delete(id);
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
