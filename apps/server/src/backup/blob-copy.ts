/**
 * Copying blobs between two folders laid out as the local store is (`<root>/ab/cd/<hash>`): from the data folder into
 * a backup, and back. Incremental: a blob already at the destination with the right size is left as it is; nothing is
 * ever deleted. A copy is written under `<root>/tmp`, synced, and renamed into place, so a name only ever holds
 * complete bytes. Checking what a folder holds (size, and with `hash` the BLAKE3 that names it) is here too.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createContentHasher } from '../storage/content-hash.js';
import { syncDir } from '../storage/local-blob-store.js';
import type { BlobList } from './blob-list.js';

/** Where a blob sits under a root laid out as the local store. */
export const blobPath = (root: string, hash: string) => join(root, hash.slice(0, 2), hash.slice(2, 4), hash);

export interface CopyReport {
  /** Blobs asked for, and their bytes (as far as known). */
  total: number;
  totalBytes: number;
  copied: number;
  copiedBytes: number;
  /** At the destination already with the right size. */
  present: number;
  /** In neither folder: named by the caller, not found where it should be copied from. */
  missing: string[];
  failed: { hash: string; reason: string }[];
  seconds: number;
}

export interface CopyOptions {
  /** A line of progress (the command prints it). */
  log?: (line: string) => void;
  progressEveryMs?: number;
  /** Blobs copied at once (many small files are latency, not bandwidth). */
  concurrency?: number;
}

/** Byte counts as people read them. */
export const fmtBytes = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`);

const sizeOf = (path: string) => stat(path).then((s) => s.size, () => null);


/** Copies each blob of `blobs` from the root `from` to the root `to` unless it is there with the right size. */
export async function copyBlobs(from: string, to: string, blobs: BlobList, opts: CopyOptions = {}): Promise<CopyReport> {
  const t0 = Date.now();
  const log = opts.log ?? (() => undefined);
  const report: CopyReport = { total: blobs.size, totalBytes: 0, copied: 0, copiedBytes: 0, present: 0, missing: [], failed: [], seconds: 0 };
  for (const size of blobs.values()) report.totalBytes += size ?? 0;
  const tmpDir = join(to, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const touched = new Set<string>();
  let done = 0;
  const progress = () => log(`  blobs: ${done}/${blobs.size} checked, ${report.copied} copied (${fmtBytes(report.copiedBytes)})`);
  const timer = setInterval(progress, opts.progressEveryMs ?? 2000);

  const one = async (hash: string, known: number | null) => {
    const src = blobPath(from, hash);
    const dst = blobPath(to, hash);
    const there = await sizeOf(dst);
    // A size no row records (a thumbnail) is the source's; with no source either, what is there stands.
    const size = known ?? (await sizeOf(src)) ?? there;
    if (size === null) return void report.missing.push(hash);
    if (known === null) report.totalBytes += size;
    if (there === size) return void report.present++;
    const tmp = join(tmpDir, `${hash}.${process.pid}.part`);
    try {
      await copyFile(src, tmp);
      const fh = await open(tmp, 'r');
      try {
        const got = (await fh.stat()).size;
        if (got !== size) throw new Error(`the file holds ${got} bytes, ${size} expected`);
        await fh.datasync();
      } finally {
        await fh.close();
      }
      await mkdir(dirname(dst), { recursive: true });
      await rename(tmp, dst);
      touched.add(dirname(dst));
      report.copied++;
      report.copiedBytes += size;
    } catch (err) {
      await rm(tmp, { force: true });
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await sizeOf(src)) === null) report.missing.push(hash);
      else report.failed.push({ hash, reason: (err as Error).message });
    }
  };

  try {
    const queue = [...blobs];
    let at = 0;
    const workers = Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, async () => {
      while (at < queue.length) {
        const [hash, size] = queue[at++]!;
        await one(hash, size);
        done++;
      }
    });
    await Promise.all(workers);
    // The folders of new names, and the folders holding new folders (one level of ab/cd at most).
    const parents = new Set([...touched].flatMap((d) => [d, dirname(d), dirname(dirname(d))]));
    for (const d of parents) await syncDir(d);
  } finally {
    clearInterval(timer);
  }
  if (blobs.size) progress();
  report.missing.sort();
  report.failed.sort((a, b) => (a.hash < b.hash ? -1 : 1));
  report.seconds = (Date.now() - t0) / 1000;
  return report;
}

export interface CheckReport {
  checked: number;
  bytes: number;
  missing: string[];
  /** Present with another size than recorded, or (with `hash`) bytes that do not hash to the name. */
  damaged: { hash: string; reason: string }[];
}

/** BLAKE3 of a file, read in 1 MiB pieces. */
async function hashFile(path: string): Promise<string> {
  const hasher = await createContentHasher();
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hasher.update(chunk as Buffer);
  return hasher.digest();
}

/** Checks that every blob of `blobs` is under `root` with its size, and with `hash` that its bytes hash to its name. */
export async function checkBlobs(root: string, blobs: BlobList, opts: { hash?: boolean; log?: (line: string) => void; progressEveryMs?: number } = {}): Promise<CheckReport> {
  const report: CheckReport = { checked: 0, bytes: 0, missing: [], damaged: [] };
  const timer = setInterval(() => opts.log?.(`  checking: ${report.checked}/${blobs.size} blobs, ${fmtBytes(report.bytes)}`), opts.progressEveryMs ?? 2000);
  try {
    for (const [hash, size] of blobs) {
      const path = blobPath(root, hash);
      const got = await sizeOf(path);
      report.checked++;
      if (got === null) {
        report.missing.push(hash);
        continue;
      }
      report.bytes += got;
      if (size !== null && got !== size) report.damaged.push({ hash, reason: `${got} bytes, ${size} expected` });
      else if (opts.hash) {
        const digest = await hashFile(path);
        if (digest !== hash) report.damaged.push({ hash, reason: `its bytes hash to ${digest}` });
      }
    }
  } finally {
    clearInterval(timer);
  }
  report.missing.sort();
  report.damaged.sort((a, b) => (a.hash < b.hash ? -1 : 1));
  return report;
}
