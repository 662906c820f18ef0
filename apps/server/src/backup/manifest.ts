/**
 * What a backup folder says about itself (`manifest.json`, written last, so a folder whose manifest is there holds
 * every file it names), and the record of the last backup kept in the database for the admin area
 * (`system_kv` key `last_backup`: every process of an install sees it, on one machine or several).
 */
import { readFileSync } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export const MANIFEST_FILE = 'manifest.json';
/** The system_kv key of the last backup's record. */
export const LAST_BACKUP_KEY = 'last_backup';

export interface BackupManifest {
  format: 1;
  /** When the database snapshot was taken (ISO 8601): the moment the backup stands for. */
  taken_at: string;
  finished_at: string;
  haul_version: string | null;
  /** The newest migration the database had run. */
  schema: string | null;
  database: { kind: 'sqlite' | 'postgres'; file: string; bytes: number; users: number };
  blob_store:
    | { kind: 'local'; folder: 'blobs' }
    | { kind: 's3'; bucket: string; endpoint: string | null; copied: false; note: string };
  /** The blobs the snapshot refers to: their list (`blobs.txt`) and its SHA-256; what this run copied. */
  blobs: { count: number; bytes: number; list: string; list_sha256: string; copied: number; copied_bytes: number; already_there: number; missing: string[]; failed: { hash: string; reason: string }[] };
  /** Every blob the snapshot refers to is in the backup (or, for a bucket, the list was written). */
  complete: boolean;
}

/** The record the admin area shows: when the last backup ran, how large it is, whether it was whole. */
export interface LastBackup {
  taken_at: string;
  finished_at: string;
  /** Database and blobs the backup holds for that snapshot (blobs in a bucket are not counted: not copied). */
  bytes: number;
  database_bytes: number;
  blob_count: number;
  blob_bytes: number;
  blob_store: 'local' | 's3';
  complete: boolean;
  dir: string;
}

/** Writes `dir/manifest.json` (synced, then renamed into place). */
export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  const tmp = join(dir, `${MANIFEST_FILE}.next`);
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, MANIFEST_FILE));
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

/** Reads `dir/manifest.json`; null when the folder has none. */
export async function readManifest(dir: string): Promise<BackupManifest | null> {
  const text = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return null;
  const m = JSON.parse(text) as BackupManifest;
  if (m.format !== 1) throw new Error(`${join(dir, MANIFEST_FILE)} is of format ${String(m.format)}, which this Haul does not know`);
  return m;
}

/** Saves the last backup's record where every process reads it (system_kv). */
export async function recordLastBackup(db: Kysely<Database>, record: LastBackup): Promise<void> {
  const value = JSON.stringify(record);
  await db
    .insertInto('system_kv')
    .values({ key: LAST_BACKUP_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/** The last backup's record, for the admin area; null before the first. */
export async function lastBackup(db: Kysely<Database>): Promise<LastBackup | null> {
  const row = await db.selectFrom('system_kv').select('value').where('key', '=', LAST_BACKUP_KEY).executeTakeFirst();
  return row ? (JSON.parse(row.value) as LastBackup) : null;
}

/** The server package's version, read from its package.json above this module (source or bundle); null if not found. */
export function haulVersion(): string | null {
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@haul/server' && pkg.version) return pkg.version;
    } catch {
      // not at this level
    }
  }
  return null;
}
