/**
 * Moving an install's blobs from the data folder to an S3 bucket (`haul-admin migrate-blobs --to s3`).
 *
 * What is copied: every file of `data/blobs/ab/cd/<hash>` named by a content hash (walking the folder covers blob
 * rows, thumbnails, rendition segments and cloud-download sources alike, without knowing every table that keeps a
 * blob). The database is read only to name blobs it refers to that are on neither side. Each copy is checked twice:
 * the local bytes are hashed as they are sent and the object is only created when they match their name (one
 * PutObject, or a multipart upload completed only then), and the object is read back from S3 and hashed again.
 * Resumable: an object already in the bucket with the right size is skipped (read back and hashed with `verify`).
 * Nothing local is ever deleted.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/database.js';
import { isContentHash } from './blob-store.js';
import { createContentHasher } from './content-hash.js';
import { BLOB_PREFIX, s3Sdk, type S3BlobStore } from './s3-blob-store.js';

const MiB = 1024 * 1024;

export interface MigrateOptions {
  /** Read back and hash objects already in the bucket too, copying again those that do not match. */
  verify?: boolean;
  /** Blobs copied at once (latency of many small objects); each large one has up to 3 parts in flight. */
  concurrency?: number;
  partSize?: number;
  /** A line of progress or outcome (the command prints them). */
  log?: (line: string) => void;
  progressEveryMs?: number;
}

export interface MigrateReport {
  /** Blob files found in the data folder. */
  total: number;
  totalBytes: number;
  copied: number;
  copiedBytes: number;
  /** Already in the bucket with the right size (and, with verify, the right hash). */
  skipped: number;
  verified: number;
  failed: { hash: string; reason: string }[];
  /** Known to the database, in neither the data folder nor the bucket: unreadable before the move already. */
  missing: string[];
  /** Deleted from the data folder while the migration ran (the server's clean-up of unreferenced blobs). */
  vanished: number;
  seconds: number;
}

/** Every blob file of the local store: `<root>/ab/cd/<hash>` with the hash's own first bytes; anything else is not a blob. */
export async function listLocalBlobs(root: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const hex2 = /^[0-9a-f]{2}$/;
  const dirs = async (p: string) => (await readdir(p, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory() && hex2.test(d.name)).map((d) => d.name);
  for (const a of await dirs(root)) {
    for (const b of await dirs(join(root, a))) {
      for (const e of await readdir(join(root, a, b), { withFileTypes: true })) {
        if (!e.isFile() || !isContentHash(e.name) || !e.name.startsWith(a + b)) continue;
        const st = await stat(join(root, a, b, e.name)).catch(() => null);
        if (st) found.set(e.name, st.size);
      }
    }
  }
  return found;
}

/** Hashes the database refers to: blob rows, thumbnails, cloud-download sources and finished rendition segments. */
export async function knownBlobHashes(db: Db): Promise<Set<string>> {
  const known = new Set<string>();
  for (const r of await db.selectFrom('blobs').select('hash').execute()) known.add(r.hash);
  for (const r of await db.selectFrom('media_thumbnails').select('thumb_hash').where('thumb_hash', '!=', '').execute()) known.add(r.thumb_hash);
  for (const r of await db.selectFrom('offline_sources').select('hash').execute()) known.add(r.hash);
  for (const r of await db.selectFrom('media_renditions').select('segments').execute()) {
    for (const seg of Object.values(JSON.parse(r.segments || '{}') as Record<string, { hash?: string }>)) if (seg.hash) known.add(seg.hash);
  }
  for (const h of known) if (!isContentHash(h)) known.delete(h);
  return known;
}

/** Objects of the bucket's blob layout, hash → size. */
async function listBucketBlobs(s3: S3BlobStore): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for await (const page of s3.list(BLOB_PREFIX)) {
    for (const o of page) {
      const hash = o.key.slice(o.key.lastIndexOf('/') + 1);
      if (isContentHash(hash) && o.key === s3.keyOf(hash)) found.set(hash, o.size);
    }
  }
  return found;
}

class DamagedLocal extends Error {}

/**
 * Sends a local blob to its content key, hashing what is read; the object only comes into being once the bytes are
 * known to match their name (small blobs: hashed in memory, then one PutObject; large: a multipart upload completed
 * only after its last part was hashed, aborted otherwise).
 */
async function sendVerified(s3: S3BlobStore, path: string, hash: string, partSize: number): Promise<number> {
  const key = s3.keyOf(hash);
  const { AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } = s3Sdk();
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const hasher = await createContentHasher();
    const damaged = (got: string) => new DamagedLocal(`the local file is damaged: its ${size} bytes hash to ${got}, not to its name; restore it from a backup`);
    if (size <= partSize) {
      const body = Buffer.alloc(size);
      if (size > 0) await fh.read(body, 0, size, 0);
      hasher.update(body);
      const got = hasher.digest();
      if (got !== hash) throw damaged(got);
      await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentLength: size }));
      return size;
    }
    // S3 allows 10,000 parts.
    const part = Math.max(partSize, Math.ceil(size / 9_000));
    const { UploadId } = await s3.client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }));
    try {
      const parts: { PartNumber: number; ETag: string | undefined }[] = [];
      const inFlight = new Set<Promise<void>>();
      for (let start = 0, n = 1; start < size; start += part, n++) {
        const len = Math.min(part, size - start);
        const body = Buffer.alloc(len);
        const { bytesRead } = await fh.read(body, 0, len, start);
        if (bytesRead !== len) throw new DamagedLocal(`the local file changed size while being read (${start + bytesRead} of ${size} bytes)`);
        hasher.update(body);
        const sent = s3.client
          .send(new UploadPartCommand({ Bucket: s3.bucket, Key: key, UploadId, PartNumber: n, Body: body, ContentLength: len }))
          .then((r) => void parts.push({ PartNumber: n, ETag: r.ETag }));
        inFlight.add(sent);
        void sent.then(() => inFlight.delete(sent), () => undefined);
        if (inFlight.size >= 3) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      const got = hasher.digest();
      if (got !== hash) throw damaged(got);
      parts.sort((a, b) => a.PartNumber - b.PartNumber);
      await s3.client.send(new CompleteMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      await s3.client.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId })).catch(() => undefined);
      throw err;
    }
    return size;
  } finally {
    await fh.close();
  }
}

/** Reads the object back from S3 and hashes it: null when it matches its name and size, else what differs. */
async function checkObject(s3: S3BlobStore, hash: string, size: number): Promise<string | null> {
  const hasher = await createContentHasher();
  let n = 0;
  for await (const chunk of s3.read(hash)) {
    hasher.update(chunk as Buffer);
    n += (chunk as Buffer).length;
  }
  const got = hasher.digest();
  if (n !== size) return `read back ${n} bytes from the bucket, expected ${size}`;
  return got === hash ? null : `the bytes read back from the bucket hash to ${got}`;
}

const fmtBytes = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`);
const fmtRate = (bytes: number, ms: number) => `${ms > 0 ? (bytes / 1e6 / (ms / 1000)).toFixed(1) : '0.0'} MB/s`;

/** Copies every blob of the local store at `blobsDir` into the bucket of `s3`; see the module comment. */
export async function migrateBlobsToS3(db: Db, blobsDir: string, s3: S3BlobStore, opts: MigrateOptions = {}): Promise<MigrateReport> {
  const log = opts.log ?? (() => undefined);
  const partSize = opts.partSize ?? 8 * MiB;
  const t0 = Date.now();
  const local = await listLocalBlobs(blobsDir);
  const bucket = await listBucketBlobs(s3);
  const known = await knownBlobHashes(db);
  const report: MigrateReport = { total: local.size, totalBytes: 0, copied: 0, copiedBytes: 0, skipped: 0, verified: 0, failed: [], missing: [], vanished: 0, seconds: 0 };
  for (const size of local.values()) report.totalBytes += size;
  report.missing = [...known].filter((h) => !local.has(h) && !bucket.has(h)).sort();
  log(`${local.size} blobs (${fmtBytes(report.totalBytes)}) in ${blobsDir}; ${bucket.size} already in bucket ${s3.bucket}`);

  let done = 0;
  let doneBytes = 0;
  const progress = () =>
    log(`  ${done}/${local.size} blobs, ${fmtBytes(doneBytes)} of ${fmtBytes(report.totalBytes)}, ${fmtBytes(report.copiedBytes)} copied at ${fmtRate(report.copiedBytes, Date.now() - t0)}`);
  const timer = setInterval(progress, opts.progressEveryMs ?? 2000);

  const one = async (hash: string, size: number) => {
    try {
      if (bucket.get(hash) === size) {
        if (!opts.verify) return void report.skipped++;
        const wrong = await checkObject(s3, hash, size);
        if (!wrong) return void (report.skipped++, report.verified++);
        log(`  ${hash}: ${wrong}; copying it again`);
      }
      const sent = await sendVerified(s3, join(blobsDir, hash.slice(0, 2), hash.slice(2, 4), hash), hash, partSize);
      const wrong = await checkObject(s3, hash, sent);
      if (wrong) {
        // Never leave a content key holding bytes that do not match it.
        await s3.delete(hash).catch(() => undefined);
        throw new Error(wrong);
      }
      report.copied++;
      report.copiedBytes += sent;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !(await stat(join(blobsDir, hash.slice(0, 2), hash.slice(2, 4), hash)).catch(() => null))) {
        report.vanished++;
        return;
      }
      report.failed.push({ hash, reason: (err as Error).message || String(err) });
    } finally {
      done++;
      doneBytes += size;
    }
  };

  try {
    const queue = [...local].sort(([a], [b]) => (a < b ? -1 : 1));
    let at = 0;
    const workers = Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, async () => {
      while (at < queue.length) {
        const [hash, size] = queue[at++]!;
        await one(hash, size);
      }
    });
    await Promise.all(workers);
  } finally {
    clearInterval(timer);
  }
  progress();
  report.seconds = (Date.now() - t0) / 1000;
  report.failed.sort((a, b) => (a.hash < b.hash ? -1 : 1));
  return report;
}

/** What the command prints after a run: the outcome, what failed, and what the operator does next. */
export function describeReport(r: MigrateReport, where: { blobsDir: string; bucket: string }): string[] {
  const lines = [
    `done in ${r.seconds.toFixed(1)} s: ${r.copied} copied (${fmtBytes(r.copiedBytes)}, ${fmtRate(r.copiedBytes, r.seconds * 1000)}), ` +
      `${r.skipped} already in the bucket${r.verified ? ` (${r.verified} read back and verified)` : ''}, ${r.failed.length} failed` +
      (r.vanished ? `, ${r.vanished} deleted by the server meanwhile` : ''),
  ];
  if (r.missing.length) {
    lines.push(`${r.missing.length} blobs the database refers to are in neither ${where.blobsDir} nor the bucket (unreadable before this move too):`);
    for (const h of r.missing.slice(0, 50)) lines.push(`  ${h}`);
    if (r.missing.length > 50) lines.push(`  … and ${r.missing.length - 50} more`);
  }
  if (r.failed.length) {
    lines.push(`FAILED (not in the bucket; their local files are untouched):`);
    for (const f of r.failed) lines.push(`  ${f.hash}: ${f.reason}`);
    lines.push(`Fix or restore these and run the command again (it skips what is copied) before switching HAUL_BLOB_STORE to s3.`);
    return lines;
  }
  lines.push(
    `Every blob is in bucket ${where.bucket}, checked by reading it back. Nothing was deleted. Next: stop Haul, run this`,
    `command again (it copies only what arrived since), set HAUL_BLOB_STORE=s3 (keeping the HAUL_S3_* settings) and start`,
    `Haul. Once it serves files from the bucket as it should, remove ${where.blobsDir}; the rest of the data folder`,
    `(database, uploads in progress, media scratch space) stays in use.`,
  );
  return lines;
}
