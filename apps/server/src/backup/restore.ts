/**
 * `haul-admin restore DIR`: a backup (backup.ts) brought onto a fresh install, one whose database has no account yet;
 * anything else is refused, so a restore never overwrites a drive in use. The blobs come first: copied from DIR into
 * the data folder (only what is not there with the right size) and checked (size; BLAKE3 with `verify`), or checked in
 * the bucket when the install keeps its blobs there. Only when every blob the snapshot needs is there is the database
 * put in place (`allowMissing` puts it in place anyway), so a restore that stops short can be run again as it is.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { isContentHash } from '../storage/blob-store.js';
import { createContentHasher } from '../storage/content-hash.js';
import { BLOB_PREFIX, S3BlobStore } from '../storage/s3-blob-store.js';
import { readBlobList, type BlobList } from './blob-list.js';
import { blobPath, checkBlobs, copyBlobs, fmtBytes, type CheckReport } from './blob-copy.js';
import { counted, within } from './backup.js';
import { BackupError, dumpTables, postgresTarget, restorePostgres, restoreSqlite, sqlitePath, sqliteUsers } from './database-copy.js';
import { MANIFEST_FILE, readManifest } from './manifest.js';

export interface RestoreOptions {
  /** Hash every blob (BLAKE3), not only check its size. */
  verify?: boolean;
  /** Put the database in place even when blobs are missing or damaged (their files will not open). */
  allowMissing?: boolean;
  log: (line: string) => void;
}

/** Refuses a target that is not a fresh install, saying what to do; `dump` is the backup's database file. */
async function requireFresh(config: Config, dump: string): Promise<void> {
  if (config.databaseUrl) {
    const target = await postgresTarget(config.databaseUrl);
    if (target.users) throw new BackupError(`the database HAUL_DATABASE_URL names already has ${counted(target.users, 'account')}: restore only onto a fresh install (an empty database)`);
    // The dump's own tables are replaced; any other (a newer Haul's, another program's) would outlive the restore and
    // trip the next start's migrations, or be Haul's to clobber.
    const held = await dumpTables(dump);
    const others = target.tables.filter((t) => !held.has(t));
    if (others.length) {
      throw new BackupError(`the database HAUL_DATABASE_URL names holds tables this backup does not (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}): restore into an empty database (createdb)`);
    }
    return;
  }
  const live = sqlitePath(resolve(config.dataDir));
  const users = await sqliteUsers(live);
  if (users) throw new BackupError(`${live} already has ${counted(users, 'account')}: restore only onto a fresh install (point HAUL_DATA_DIR at an empty folder)`);
  // The last connection to close removes the write-ahead log: one that stays is another process's open database.
  if (users === 0 && (await stat(`${live}-wal`).catch(() => null))) throw new BackupError(`${live} is open in another process: stop Haul before restoring`);
}

/** Checks the bucket holds every blob of `blobs` with its size (and, with `hash`, bytes that hash to its name). */
async function checkBucket(s3: S3BlobStore, blobs: BlobList, hash: boolean, log: (line: string) => void): Promise<CheckReport> {
  const sizes = new Map<string, number>();
  for await (const page of s3.list(BLOB_PREFIX)) {
    for (const o of page) {
      const h = o.key.slice(o.key.lastIndexOf('/') + 1);
      if (isContentHash(h) && blobs.has(h) && o.key === s3.keyOf(h)) sizes.set(h, o.size);
    }
  }
  const report: CheckReport = { checked: 0, bytes: 0, missing: [], damaged: [] };
  for (const [h, size] of blobs) {
    report.checked++;
    const got = sizes.get(h);
    if (got === undefined) {
      report.missing.push(h);
      continue;
    }
    report.bytes += got;
    if (size !== null && got !== size) report.damaged.push({ hash: h, reason: `${got} bytes in the bucket, ${size} expected` });
    else if (hash) {
      const hasher = await createContentHasher();
      for await (const chunk of s3.read(h)) hasher.update(chunk as Buffer);
      const digest = hasher.digest();
      if (digest !== h) report.damaged.push({ hash: h, reason: `its bytes in the bucket hash to ${digest}` });
      if (report.checked % 100 === 0) log(`  checking: ${report.checked}/${blobs.size} blobs`);
    }
  }
  report.missing.sort();
  return report;
}

/** Restores the backup in `dirArg` onto the install `config` describes; resolves with whether every blob is there. */
export async function runRestore(config: Config, dirArg: string, opts: RestoreOptions): Promise<{ ok: boolean; summary: string[] }> {
  const t0 = Date.now();
  const { log } = opts;
  const dir = resolve(dirArg);
  const data = resolve(config.dataDir);
  const manifest = await readManifest(dir);
  if (!manifest) throw new BackupError(`${dir} holds no Haul backup (no ${MANIFEST_FILE})`);
  if (within(data, dir)) throw new BackupError(`${dir} is in the data folder ${data} it would be restored into: move it out first`);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  if (manifest.database.kind !== kind) {
    throw new BackupError(
      manifest.database.kind === 'postgres'
        ? 'this backup holds a PostgreSQL dump: set HAUL_DATABASE_URL to an empty PostgreSQL database to restore it into'
        : 'this backup holds a SQLite database: unset HAUL_DATABASE_URL (and DATABASE_URL) to restore it into the data folder',
    );
  }
  if (manifest.blob_store.kind !== config.blobStore) {
    throw new BackupError(
      manifest.blob_store.kind === 's3'
        ? `this backup's blobs are in bucket ${manifest.blob_store.bucket}, not in the backup: restore with HAUL_BLOB_STORE=s3 and the HAUL_S3_* settings of that bucket (or of a copy of it)`
        : 'this backup holds its blobs in the folder: restore it with HAUL_BLOB_STORE=local, then move them with "haul-admin migrate-blobs --to s3"',
    );
  }
  await requireFresh(config, join(dir, manifest.database.file));
  await mkdir(data, { recursive: true });

  log(`restoring the backup taken ${manifest.taken_at} (Haul ${manifest.haul_version ?? 'of unknown version'}, ${counted(manifest.database.users, 'account')}, ${manifest.blobs.count} blobs) into ${data}`);
  if (!manifest.complete) log(`warning: the backup was incomplete when taken (${counted(manifest.blobs.missing.length + manifest.blobs.failed.length, 'blob')} missing)`);
  const blobs = await readBlobList(dir, manifest.blobs.list_sha256);

  const summary: string[] = [];
  let check: CheckReport;
  let copied = '';
  if (config.blobStore === 'local') {
    log(`blobs: copying from ${join(dir, 'blobs')} into ${join(data, 'blobs')}…`);
    const copy = await copyBlobs(join(dir, 'blobs'), join(data, 'blobs'), blobs, { log });
    for (const f of copy.failed) summary.push(`ERROR: blob ${f.hash} could not be copied: ${f.reason}`);
    copied = `${copy.copied} copied (${fmtBytes(copy.copiedBytes)}), ${copy.present} already there, `;
    log(`blobs: checking ${blobs.size} blobs${opts.verify ? ' (size and BLAKE3)' : ' (size)'}…`);
    check = await checkBlobs(join(data, 'blobs'), blobs, { hash: opts.verify, log });
    // Bytes that do not match their name are no blob: gone, so that a run after the backup is mended copies them anew.
    for (const d of check.damaged) await rm(blobPath(join(data, 'blobs'), d.hash), { force: true });
  } else {
    const s3 = new S3BlobStore(config.s3!);
    try {
      log(`blobs: checking ${blobs.size} blobs in bucket ${config.s3!.bucket}${opts.verify ? ' (size and BLAKE3)' : ' (size)'}…`);
      check = await checkBucket(s3, blobs, !!opts.verify, log);
    } finally {
      s3.client.destroy();
    }
  }
  for (const h of check.missing) summary.push(`ERROR: blob ${h} is missing (${config.blobStore === 'local' ? 'not in the backup' : 'not in the bucket'})`);
  for (const d of check.damaged) summary.push(`ERROR: blob ${d.hash} is damaged: ${d.reason}${config.blobStore === 'local' ? ' (not kept in the data folder)' : ''}`);
  const bad = check.missing.length + check.damaged.length;
  if (bad && !opts.allowMissing) {
    summary.push(
      `restore STOPPED: ${bad} of ${blobs.size} blobs missing or damaged (above); the database was not restored. Fix the backup and run ` +
        `this again, or add --allow-missing to restore anyway (the files of those blobs will not open).`,
    );
    return { ok: false, summary };
  }

  log(`database: restoring ${manifest.database.kind === 'sqlite' ? `into ${sqlitePath(data)}` : 'with pg_restore'}…`);
  const from = join(dir, manifest.database.file);
  if (config.databaseUrl) await restorePostgres(from, config.databaseUrl);
  else await restoreSqlite(from, sqlitePath(data));
  summary.push(
    `restore done in ${((Date.now() - t0) / 1000).toFixed(1)} s: database (${counted(manifest.database.users, 'account')}); ${blobs.size} blobs, ${copied}` +
      `${fmtBytes(check.bytes)} checked by ${opts.verify ? 'size and hash' : 'size'}${bad ? `, ${bad} missing or damaged` : ''}. ` +
      'Start Haul on this data folder: it brings the database up to its own version when newer. Uploads and cloud downloads unfinished when the backup was taken are not in it.',
  );
  return { ok: bad === 0, summary };
}
