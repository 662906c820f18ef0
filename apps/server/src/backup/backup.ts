/**
 * `haul-admin backup DIR`: a consistent copy of an install while it runs. The database first (a snapshot: SQLite's
 * online backup, or pg_dump of an exported PostgreSQL snapshot), then the blobs that snapshot refers to. Blobs are
 * named by their content and never change, so copying them after the snapshot gives exactly the bytes it names; one
 * deleted in between (a file deleted and purged meanwhile) is reported by hash and the run ends in failure, the rest
 * copied. A bucket is not copied: the manifest lists the blobs the snapshot needs, and the provider's tools keep the
 * bucket. Run again into the same DIR, only blobs not there yet are copied, and nothing is deleted.
 *
 * DIR afterwards: `haul.db` (SQLite) or `haul.pgdump` (pg_dump's custom format), `blobs/ab/cd/<hash>` (local store),
 * `blobs.txt` (the snapshot's blobs) and `manifest.json`, written last. The new database file is renamed into place
 * only after its blobs are copied, so the folder always holds one whole backup, the earlier one until then.
 */
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Config } from '../config.js';
import { BLOB_LIST_FILE, writeBlobList } from './blob-list.js';
import { copyBlobs, fmtBytes, type CopyReport } from './blob-copy.js';
import { BackupError, fileSize, liveDatabase, snapshotPostgres, snapshotSqlite, sqlitePath, syncFile } from './database-copy.js';
import { haulVersion, MANIFEST_FILE, readManifest, recordLastBackup, writeManifest, type BackupManifest } from './manifest.js';

/** The files a backup writes in its folder (and their names while being written). */
const OWN_NAMES = new Set(['haul.db', 'haul.db.next', 'haul.pgdump', 'haul.pgdump.next', 'blobs', BLOB_LIST_FILE, `${BLOB_LIST_FILE}.next`, MANIFEST_FILE, `${MANIFEST_FILE}.next`]);

/** Whether `inner` is `outer` or inside it. */
export function within(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** "1 account", "3 accounts". */
export const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export interface BackupOutcome {
  manifest: BackupManifest;
  /** What the command prints last: the summary, after any error lines. */
  summary: string[];
}

/** Backs the install `config` describes up into `dirArg`; see the module comment. `log` gets each progress line. */
export async function runBackup(config: Config, dirArg: string, log: (line: string) => void): Promise<BackupOutcome> {
  const t0 = Date.now();
  const dir = resolve(dirArg);
  const data = resolve(config.dataDir);
  if (within(data, dir)) throw new BackupError(`${dir} is in the data folder ${data}: back up into a folder outside it (on another disk, ideally)`);
  await mkdir(dir, { recursive: true });
  const strangers = (await readdir(dir)).filter((n) => !OWN_NAMES.has(n));
  if (strangers.length && !(await readManifest(dir))) {
    throw new BackupError(`${dir} holds other files (${strangers.slice(0, 3).join(', ')}) and no Haul backup: name an empty or new folder, or one an earlier backup wrote`);
  }

  const sqlite = !config.databaseUrl;
  const dbFile = sqlite ? 'haul.db' : 'haul.pgdump';
  const staged = join(dir, `${dbFile}.next`);
  const takenAt = new Date();
  if (sqlite && !(await fileSize(sqlitePath(data)).catch(() => null))) throw new BackupError(`no database at ${sqlitePath(data)}: is HAUL_DATA_DIR right?`);
  log(sqlite ? `database: SQLite online backup of ${sqlitePath(data)}…` : 'database: pg_dump of a PostgreSQL snapshot…');
  const facts = sqlite ? await snapshotSqlite(sqlitePath(data), staged) : await snapshotPostgres(config.databaseUrl!, staged, log);
  const dbBytes = await fileSize(staged);
  let listedBytes = 0;
  for (const size of facts.blobs.values()) listedBytes += size ?? 0;
  log(`database: ${fmtBytes(dbBytes)} in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${counted(facts.users, 'account')}, ${facts.blobs.size} blobs referred to`);

  let copy: CopyReport | null = null;
  if (config.blobStore === 'local') {
    const from = join(data, 'blobs');
    log(`blobs: copying what the snapshot refers to from ${from} into ${join(dir, 'blobs')} (only what is not there yet)…`);
    // blobs/tmp holds only this command's unfinished copies.
    await rm(join(dir, 'blobs', 'tmp'), { recursive: true, force: true });
    copy = await copyBlobs(from, join(dir, 'blobs'), facts.blobs, { log });
  } else {
    log(`blobs: in bucket ${config.s3!.bucket}, not copied: back the bucket up with the provider's own tools; ${BLOB_LIST_FILE} lists the ${facts.blobs.size} blobs this snapshot needs`);
  }

  const listSha = await writeBlobList(dir, facts.blobs);
  await syncFile(staged);
  await rename(staged, join(dir, dbFile));
  const complete = !copy || (copy.missing.length === 0 && copy.failed.length === 0);
  const manifest: BackupManifest = {
    format: 1,
    taken_at: takenAt.toISOString(),
    finished_at: new Date().toISOString(),
    haul_version: haulVersion(),
    schema: facts.schema,
    database: { kind: sqlite ? 'sqlite' : 'postgres', file: dbFile, bytes: dbBytes, users: facts.users },
    blob_store: copy
      ? { kind: 'local', folder: 'blobs' }
      : {
          kind: 's3',
          bucket: config.s3!.bucket,
          endpoint: config.s3!.endpoint,
          copied: false,
          note: `The bucket is not copied: keep it with the provider's own tools (versioning, replication, a bucket copy). ${BLOB_LIST_FILE} lists the blobs this snapshot needs.`,
        },
    blobs: {
      count: facts.blobs.size,
      bytes: copy ? copy.totalBytes : listedBytes,
      list: BLOB_LIST_FILE,
      list_sha256: listSha,
      copied: copy?.copied ?? 0,
      copied_bytes: copy?.copiedBytes ?? 0,
      already_there: copy?.present ?? 0,
      missing: copy?.missing ?? [],
      failed: copy?.failed ?? [],
    },
    complete,
  };
  await writeManifest(dir, manifest);

  const summary: string[] = [];
  for (const hash of manifest.blobs.missing) summary.push(`ERROR: blob ${hash} is referred to by the snapshot and was not in ${join(data, 'blobs')} when copied (deleted since, or lost)`);
  for (const f of manifest.blobs.failed) summary.push(`ERROR: blob ${f.hash} could not be copied: ${f.reason}`);
  // The admin area shows this; a failure to record it does not undo the backup.
  const blobBytes = copy ? copy.totalBytes : 0;
  try {
    const live = await liveDatabase(config);
    try {
      await recordLastBackup(live, {
        taken_at: manifest.taken_at,
        finished_at: manifest.finished_at,
        bytes: dbBytes + blobBytes,
        database_bytes: dbBytes,
        blob_count: facts.blobs.size,
        blob_bytes: blobBytes,
        blob_store: config.blobStore,
        complete,
        dir,
      });
    } finally {
      await live.destroy();
    }
  } catch (err) {
    summary.push(`warning: the backup is made, but its record for the admin area was not saved: ${(err as Error).message}`);
  }

  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const blobs = copy
    ? `${copy.total} blobs (${fmtBytes(copy.totalBytes)}): ${copy.copied} copied (${fmtBytes(copy.copiedBytes)}), ${copy.present} already there`
    : `${facts.blobs.size} blobs listed, not copied (they are in bucket ${config.s3!.bucket})`;
  summary.push(
    complete
      ? `backup done in ${secs} s: database ${fmtBytes(dbBytes)} (${counted(facts.users, 'account')}), ${blobs}; ${join(dir, MANIFEST_FILE)}`
      : `backup INCOMPLETE in ${secs} s: ${manifest.blobs.missing.length} blobs missing, ${manifest.blobs.failed.length} not copied (above); the database and the other blobs are in ${dir}`,
  );
  return { manifest, summary };
}
