/**
 * SQLite (wa-sqlite 2.0.6, its Asyncify build) in a dedicated worker, kept in IndexedDB through IDBBatchAtomicVFS:
 * the one VFS that works where OPFS is missing (plain HTTP on a LAN address). A `files` table of the row's indexed
 * fields beside its JSON, indexed by (user_id, parent_id, id) and (user_id, star). A page of rows is one statement
 * over `json_each` (one asynchronous step, not 500); a chunk of a slice is one row of `group_concat`.
 * Settings from /work/shared/FINDINGS.md ("SQLite in the browser"): a 128 MB page cache (the VFS keeps its journal
 * there; at the default size one insert of 100,000 rows took 148 s), and `synchronous=normal`, which makes the VFS
 * commit with relaxed durability, as the web app's page writes do.
 */
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite-async.mjs';
import * as SQLite from '@journeyapps/wa-sqlite';
import { IDBBatchAtomicVFS } from '@journeyapps/wa-sqlite/src/examples/IDBBatchAtomicVFS.js';
import { installLocks } from './worker-locks';
import type { LocalFile, LocalSlice } from './store-api';

// The VFS takes its locks through navigator.locks, which an insecure context lacks: one connection here, so locks
// kept in this worker's memory are exact (several tabs would need a lock shared between them).
const lockStandIn = installLocks();

// Where a write's time goes: the VFS keeps each 4 KB page of the database as an IndexedDB record.
const io = { blockPuts: 0 };
const put = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
  if (this.name === 'blocks') io.blockPuts++;
  return put.apply(this, args);
};

let sqlite3: SQLiteAPI;
let db = 0;

async function open() {
  const module = await SQLiteESMFactory();
  sqlite3 = SQLite.Factory(module);
  // (`create` waits for the VFS's IndexedDB to open; the package's declarations leave it out.)
  const vfs = await (IDBBatchAtomicVFS as unknown as { create(name: string, module: unknown): Promise<SQLiteVFS> }).create('local-store', module);
  sqlite3.vfs_register(vfs, true);
  db = await sqlite3.open_v2('drive.db');
  await sqlite3.exec(
    db,
    `PRAGMA cache_size=-131072;
     PRAGMA synchronous=normal;
     CREATE TABLE IF NOT EXISTS files (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, parent_id TEXT NOT NULL,
       star INTEGER NOT NULL, stamp INTEGER NOT NULL, data TEXT NOT NULL);
     CREATE INDEX IF NOT EXISTS files_folder ON files (user_id, parent_id, id);
     CREATE INDEX IF NOT EXISTS files_star ON files (user_id, star);`,
  );
  return { lockStandIn, version: sqlite3.libversion() };
}

/** Runs one statement with its parameters; the rows it gives, as arrays. */
async function run(sql: string, params: SQLiteCompatibleType[] = []) {
  const rows: SQLiteCompatibleType[][] = [];
  for await (const stmt of sqlite3.statements(db, sql)) {
    if (params.length) sqlite3.bind_collection(stmt, params);
    while ((await sqlite3.step(stmt)) === SQLite.SQLITE_ROW) rows.push(sqlite3.row(stmt));
  }
  return rows;
}

const UPSERT = `INSERT OR REPLACE INTO files (id, user_id, parent_id, star, stamp, data)
  SELECT value->>'id', value->>'user_id', value->>'parent_id', value->>'star', value->>'local_sync_timestamp', value FROM json_each(?)`;

async function write(put: LocalFile[], deleted: string[]) {
  await run('BEGIN IMMEDIATE');
  try {
    if (deleted.length) await run('DELETE FROM files WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify(deleted)]);
    if (put.length) await run(UPSERT, [JSON.stringify(put)]);
    await run('COMMIT');
  } catch (err) {
    await run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** Changes fields of stored rows (read, merged here, written back in one transaction); rows not stored are left out. */
async function update(changes: { id: string; changes: Partial<LocalFile> }[]) {
  await run('BEGIN IMMEDIATE');
  try {
    const stored = await run('SELECT id, data FROM files WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify(changes.map((c) => c.id))]);
    const byId = new Map(stored.map(([id, data]) => [id as string, JSON.parse(data as string) as LocalFile]));
    const put: LocalFile[] = [];
    for (const c of changes) {
      const row = byId.get(c.id);
      if (row) put.push({ ...row, ...c.changes });
    }
    if (put.length) await run(UPSERT, [JSON.stringify(put)]);
    await run('COMMIT');
  } catch (err) {
    await run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

const where = (slice: LocalSlice) => (slice.kind === 'folder' ? 'user_id = ?1 AND parent_id = ?2' : 'user_id = ?1 AND star = 1 AND ?2 IS NULL');

/** A chunk of a slice in id order: its rows as one JSON array's text, its last id, how many. */
async function slice(userId: string, s: LocalSlice, after: string, limit: number) {
  const [row] = await run(
    `SELECT '[' || group_concat(data, ',' ORDER BY id) || ']', max(id), count(*)
       FROM (SELECT id, data FROM files WHERE ${where(s)} AND id > ?3 ORDER BY id LIMIT ?4)`,
    [userId, s.kind === 'folder' ? s.parentId : null, after, limit],
  );
  return row;
}

const ops: Record<string, (...args: never[]) => Promise<unknown>> = {
  open,
  write,
  update,
  slice,
  async deleteStale(userId: string, s: LocalSlice | null, stamp: number) {
    if (!s) await run('DELETE FROM files WHERE user_id = ? AND stamp < ?', [userId, stamp]);
    else await run(`DELETE FROM files WHERE ${where(s)} AND stamp < ?3`, [userId, s.kind === 'folder' ? s.parentId : null, stamp]);
  },
  async clear(userId: string) {
    await run('DELETE FROM files WHERE user_id = ?', [userId]);
  },
  async count() {
    return (await run('SELECT count(*) FROM files'))[0]![0];
  },
  async io() {
    return { ...io, pageSize: (await run('PRAGMA page_size'))[0]![0], pages: (await run('PRAGMA page_count'))[0]![0] };
  },
};

// One call at a time, in the order they came: a statement awaits the VFS, and another must not start meanwhile.
let queue: Promise<unknown> = Promise.resolve();
self.onmessage = (e: MessageEvent<{ id: number; op: string; args: never[] }>) => {
  const { id, op, args } = e.data;
  queue = queue.then(async () => {
    try {
      postMessage({ id, ok: true, value: await ops[op]!(...args) });
    } catch (err) {
      postMessage({ id, ok: false, error: String((err as Error)?.message ?? err) });
    }
  });
};
