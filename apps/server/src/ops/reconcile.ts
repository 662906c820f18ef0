/**
 * Reconciliation: files on disk that no row explains, left by a crash between writing bytes and committing their row
 * (or between deleting a row and its bytes). Each kind is removed only once it is older than a grace period, so work
 * in flight (an upload being written, a blob adopted just before its transaction commits) is never touched. Safe while
 * uploads and downloads run, and at start-up; reports what it removed.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context.js';
import { isContentHash } from '../storage/blob-store.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import { S3BlobStore } from '../storage/s3-blob-store.js';
import { reconcileS3 } from '../storage/s3-reconcile.js';
import { HashingS3Store } from '../uploads/s3-upload-store.js';

export interface Reconciled {
  /** Upload files (bytes, hasher state, tus metadata) of uploads that no longer exist. */
  uploads: number;
  /** Blob files with no blob row. */
  blobs: number;
  /** Temporary files of blob writes that never finished. */
  parts: number;
  /** Cloud download bytes of tasks that no longer exist, and scratch folders of torrent inspections. */
  offline: number;
}

const HOUR = 3600_000;

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** Removes `path` when it was last changed more than `graceMs` ago; true when it did. */
async function removeIfOld(path: string, now: number, graceMs: number): Promise<boolean> {
  const st = await stat(path).catch(() => null);
  if (!st || now - st.mtimeMs < graceMs) return false;
  await rm(path, { recursive: true, force: true });
  return true;
}

type Keyed = { table: 'uploads' | 'tasks'; column: 'id' } | { table: 'blobs' | 'offline_sources'; column: 'hash' } | { table: 'media_thumbnails'; column: 'thumb_hash' };

/** Which of `keys` appear in `table.column` (looked up 500 at a time). */
async function existing(ctx: AppContext, where: Keyed, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const chunk = keys.slice(i, i + 500);
    const rows = (await ctx.db.selectFrom(where.table as 'blobs').select(`${where.column} as key` as 'hash').where(where.column as 'hash', 'in', chunk).execute()) as unknown as { key: string }[];
    for (const r of rows) found.add(r.key);
  }
  return found;
}

/**
 * The blob files kept by something other than a blob row: thumbnails, rendition segments, and what cloud downloads
 * remember by source (a magnet's .torrent). Asked only for files that have no blob row.
 */
async function keptOtherwise(ctx: AppContext, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const kept = new Set([
    ...(await existing(ctx, { table: 'media_thumbnails', column: 'thumb_hash' }, hashes)),
    ...(await existing(ctx, { table: 'offline_sources', column: 'hash' }, hashes)),
  ]);
  const wanted = new Set(hashes);
  for (const r of await ctx.db.selectFrom('media_renditions').select('segments').execute()) {
    const segments = JSON.parse(r.segments || '{}') as Record<string, { hash?: string }>;
    for (const seg of Object.values(segments)) if (seg.hash && wanted.has(seg.hash)) kept.add(seg.hash);
  }
  return kept;
}

/** One pass over the data folder; `graceMs` (default an hour) protects what is still being written. */
export async function reconcileOrphans(ctx: AppContext, graceMs = HOUR): Promise<Reconciled> {
  const now = Date.now();
  const out: Reconciled = { uploads: 0, blobs: 0, parts: 0, offline: 0 };
  const data = ctx.config.dataDir;

  // uploads/<id>, <id>.b3 (hasher state), <id>.json (tus metadata)
  const uploadDir = join(data, 'uploads');
  const uploadFiles = await entries(uploadDir);
  const uploadIds = [...new Set(uploadFiles.map((f) => f.split('.')[0]!))];
  const liveUploads = await existing(ctx, { table: 'uploads', column: 'id' }, uploadIds);
  for (const f of uploadFiles) {
    if (!liveUploads.has(f.split('.')[0]!) && (await removeIfOld(join(uploadDir, f), now, graceMs))) out.uploads++;
  }

  // offline/<task>.part, offline/<task>.bt/, offline/inspect-<id>/ (a torrent's file list being read)
  const offlineDir = join(data, 'offline');
  const offlineFiles = (await entries(offlineDir)).filter((f) => /\.(part|bt)$/.test(f) || f.startsWith('inspect-'));
  const liveTasks = await existing(ctx, { table: 'tasks', column: 'id' }, offlineFiles.filter((f) => !f.startsWith('inspect-')).map((f) => f.replace(/\.(part|bt)$/, '')));
  for (const f of offlineFiles) {
    const owned = !f.startsWith('inspect-') && liveTasks.has(f.replace(/\.(part|bt)$/, ''));
    if (!owned && (await removeIfOld(join(offlineDir, f), now, graceMs))) out.offline++;
  }

  // A bucket: uploads/<id>… and unfinished multipart uploads, tmp/<id> and blobs/ab/cd/<hash>, aged by their dates.
  if (ctx.uploads instanceof HashingS3Store) out.uploads += await ctx.uploads.reconcile(now, graceMs, (ids) => existing(ctx, { table: 'uploads', column: 'id' }, ids));
  if (ctx.blobs instanceof S3BlobStore) {
    const unkept = async (hashes: string[]) => {
      const known = await existing(ctx, { table: 'blobs', column: 'hash' }, hashes);
      const rowless = hashes.filter((h) => !known.has(h));
      const kept = await keptOtherwise(ctx, rowless);
      return rowless.filter((h) => !kept.has(h));
    };
    const { parts, blobs } = await reconcileS3(ctx.blobs, now, graceMs, unkept);
    return { ...out, parts, blobs };
  }
  // blobs/tmp/*.part, then blobs/ab/cd/<hash> (the local store's layout)
  if (!(ctx.blobs instanceof LocalBlobStore)) return out;
  const store = ctx.blobs;
  const blobRoot = join(data, 'blobs');
  for (const f of await entries(join(blobRoot, 'tmp'))) if (await removeIfOld(join(blobRoot, 'tmp', f), now, graceMs)) out.parts++;
  const rowless: string[] = [];
  for (const a of await entries(blobRoot)) {
    if (!/^[0-9a-f]{2}$/.test(a)) continue;
    for (const b of await entries(join(blobRoot, a))) {
      const hashes = (await entries(join(blobRoot, a, b))).filter(isContentHash);
      const known = await existing(ctx, { table: 'blobs', column: 'hash' }, hashes);
      rowless.push(...hashes.filter((h) => !known.has(h)));
    }
  }
  const kept = await keptOtherwise(ctx, rowless);
  for (const h of rowless) {
    if (!kept.has(h) && (await removeIfOld(store.pathOf(h), now, graceMs))) out.blobs++;
  }
  return out;
}
