/**
 * Copies of the database. SQLite: the online backup API of the live file, all pages in one step, so the copy is one
 * consistent read (in WAL mode a reader blocks no writer; copied in many small steps, each write by the server would
 * restart the copy, and a busy drive might never let it finish). PostgreSQL: `pg_dump --format=custom` of a snapshot
 * this process exports and keeps open while it reads, in the same snapshot, which blobs the database refers to.
 * Restoring is the reverse: a checked copy of the file renamed into place, or `pg_restore`.
 */
import { spawn } from 'node:child_process';
import { copyFile, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { loadPg } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { fmtBytes } from './blob-copy.js';
import { referencedBlobs, type BlobList } from './blob-list.js';

/** What a snapshot holds, read from the snapshot itself. */
export interface SnapshotFacts {
  blobs: BlobList;
  users: number;
  /** The newest migration the database has run: which Haul's schema it is. */
  schema: string | null;
}

/** A failure the operator can act on: the command prints its message alone. */
export class BackupError extends Error {}

async function factsOf(db: Kysely<Database>): Promise<SnapshotFacts> {
  const users = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const newest = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return { blobs: await referencedBlobs(db), users: Number(users.n), schema: newest.rows[0]?.name ?? null };
}

/** Kysely over one better-sqlite3 handle (closed with it). */
const sqliteKysely = (handle: SQLite.Database) => new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });

/** fsync of a file's bytes and size. */
export async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Copies the live SQLite database `live` to `dest` (replaced) with the online backup API; answers what it holds. */
export async function snapshotSqlite(live: string, dest: string): Promise<SnapshotFacts> {
  const source = new SQLite(live, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await rm(dest, { force: true });
    // Every remaining page in the next step: one read transaction from the first page to the last.
    await source.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  // The copy stands alone: one file, no write-ahead log beside it (the server turns WAL on again when it opens it).
  const copy = new SQLite(dest, { fileMustExist: true });
  const db = sqliteKysely(copy);
  try {
    copy.pragma('journal_mode = DELETE');
    checkSqlite(copy, dest);
    return await factsOf(db);
  } finally {
    await db.destroy();
  }
}

/** PRAGMA quick_check: refuses a file SQLite finds damaged. */
function checkSqlite(handle: SQLite.Database, path: string): void {
  const rows = handle.pragma('quick_check') as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length) throw new BackupError(`${path} is damaged (SQLite's quick_check: ${problems.slice(0, 5).join('; ')})`);
}

/** How many accounts a SQLite database file holds (0 when it has no users table yet); null when there is no file. */
export async function sqliteUsers(path: string): Promise<number | null> {
  if (!(await stat(path).catch(() => null))) return null;
  const handle = new SQLite(path, { fileMustExist: true });
  try {
    handle.pragma('busy_timeout = 5000');
    const table = handle.prepare(`select 1 from sqlite_master where type = 'table' and name = 'users'`).get();
    if (!table) return 0;
    return Number((handle.prepare('select count(*) as n from users').get() as { n: number }).n);
  } finally {
    handle.close();
  }
}

/**
 * Installs the SQLite backup `from` as the database `live`: copied beside it, checked, synced, and renamed over the
 * old file once the old file's write-ahead log and shared memory are gone (a stale log would be replayed into it).
 */
export async function restoreSqlite(from: string, live: string): Promise<void> {
  const staged = `${live}.restoring`;
  await copyFile(from, staged);
  const handle = new SQLite(staged, { fileMustExist: true });
  try {
    checkSqlite(handle, from);
  } finally {
    handle.close();
  }
  await syncFile(staged);
  for (const f of [`${live}-wal`, `${live}-shm`, live]) await rm(f, { force: true });
  await rename(staged, live);
}

/**
 * libpq's view of a node-postgres URL: the password goes through PGPASSWORD (never on a command line others can
 * read) and node-postgres's own `ssl` parameter becomes libpq's `sslmode`.
 */
function libpqTarget(url: string): { dbname: string; env: Record<string, string> } {
  const u = new URL(url);
  const env: Record<string, string> = {};
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  u.password = '';
  const ssl = u.searchParams.get('ssl');
  if (ssl !== null) {
    u.searchParams.delete('ssl');
    if (ssl !== 'false' && ssl !== '0' && !u.searchParams.has('sslmode')) u.searchParams.set('sslmode', 'require');
  }
  return { dbname: u.toString(), env };
}

/**
 * Runs a PostgreSQL client tool (against `url` when given); resolves with what it printed, rejects with its own words
 * when it fails, or with how to get it when it is missing.
 */
function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], url: string | null): Promise<string> {
  const target = url ? libpqTarget(url) : null;
  return new Promise((resolve, reject) => {
    const child = spawn(tool, target ? [...args, `--dbname=${target.dbname}`] : args, { env: { ...process.env, ...target?.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new BackupError(
              `${tool} is not on PATH: haul-admin ${tool === 'pg_dump' ? 'backup' : 'restore'} runs it for a PostgreSQL database. Install PostgreSQL's ` +
                `client tools of the server's major version or newer where haul-admin runs (Debian: apt-get install postgresql-client) and run this again.`,
            )
          : err,
      ),
    );
    child.once('close', (code) => (code === 0 ? resolve(stdout) : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim() || 'no message'}`))));
  });
}

/** A pool of one connection to `url`, as Kysely. */
async function pgKysely(url: string): Promise<Kysely<Database>> {
  const lib = await loadPg();
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new lib.Pool({ connectionString: url, max: 1 }) }) });
}

/**
 * Dumps the PostgreSQL database at `url` into `dest` (custom format) from a snapshot this process exports, and reads
 * the snapshot's facts in the transaction that holds it, so the dump and the blob list are one moment.
 */
export async function snapshotPostgres(url: string, dest: string, log: (line: string) => void = () => undefined): Promise<SnapshotFacts> {
  const db = await pgKysely(url);
  // pg_dump says nothing while it works; the size of what it has written does.
  const timer = setInterval(() => void fileSize(dest).then((n) => log(`  database: ${fmtBytes(n)} dumped so far`), () => undefined), 5000);
  try {
    await rm(dest, { force: true });
    return await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const exported = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        const dump = runPgTool('pg_dump', ['--format=custom', `--snapshot=${exported.rows[0]!.id}`, `--file=${dest}`], url);
        // Its rejection is awaited below, after the facts; until then it must not count as unhandled.
        dump.catch(() => undefined);
        // The dump has to be awaited whatever happens here: the snapshot lives only as long as this transaction.
        const facts = await factsOf(trx).catch((err: unknown) => err as Error);
        await dump;
        if (facts instanceof Error) throw facts;
        return facts;
      });
  } finally {
    clearInterval(timer);
    await db.destroy();
  }
}

/**
 * What the PostgreSQL database at `url` holds: its accounts (0 when it has no users table yet) and its tables in the
 * schema it works in.
 */
export async function postgresTarget(url: string): Promise<{ users: number; tables: string[] }> {
  const db = await pgKysely(url);
  try {
    const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() order by 1`.execute(db);
    const names = tables.rows.map((r) => r.name);
    if (!names.includes('users')) return { users: 0, tables: names };
    const n = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { users: Number(n.n), tables: names };
  } finally {
    await db.destroy();
  }
}

/** The tables a custom-format dump holds (from `pg_restore --list`). */
export async function dumpTables(dump: string): Promise<Set<string>> {
  const list = await runPgTool('pg_restore', ['--list', dump], null);
  const out = new Set<string>();
  // e.g. "215; 1259 16390 TABLE public users haul"
  for (const m of list.matchAll(/^\d+; \d+ \d+ TABLE (\S+) (\S+) /gm)) out.add(m[2]!);
  return out;
}

/**
 * Restores the dump `from` into the database at `url` in one transaction. Objects the dump holds are dropped first
 * (a fresh install that has started once has made Haul's empty tables); owners and grants are the target's.
 */
export async function restorePostgres(from: string, url: string): Promise<void> {
  await runPgTool('pg_restore', ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', from], url);
}

/** The live database of an install, without migrating it (a backup writes one row: the record of its run). */
export async function liveDatabase(cfg: { databaseUrl: string | null; dataDir: string }): Promise<Kysely<Database>> {
  if (cfg.databaseUrl) return pgKysely(cfg.databaseUrl);
  const handle = new SQLite(sqlitePath(cfg.dataDir), { fileMustExist: true });
  handle.pragma('busy_timeout = 5000');
  return sqliteKysely(handle);
}

/** Where an install keeps its SQLite database (db/database.ts). */
export const sqlitePath = (dataDir: string) => join(dataDir, 'haul.db');

/** Size of a file in bytes. */
export const fileSize = (path: string) => stat(path).then((s) => s.size);
