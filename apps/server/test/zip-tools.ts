/** What the zip tests share: sparse big files adopted by the store, fetching a zip while sampling memory, hashing trees. */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, openSync, readdirSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect } from 'vitest';
import { placeFile } from '../src/files/files.service.js';
import { createContentHasher } from '../src/storage/content-hash.js';
import type { TestHaul } from './helper.js';

export const GiB = 1024 ** 3;
export const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Every file below `dir` with its SHA-256, by path relative to it; folders as "name/" with ''. */
export async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = join(e.parentPath, e.name);
    out[relative(dir, full) + (e.isDirectory() ? '/' : '')] = e.isDirectory() ? '' : await sha256File(full);
  }
  return out;
}

/**
 * A file of `size` bytes in `ownerId`'s folder that takes no disk (a sparse file in `work` with marks at its start,
 * middle and end), adopted by the store without a copy.
 */
export async function sparseFile(h: TestHaul, ownerId: string, work: string, parentId: string, name: string, size: number): Promise<{ id: string; sha256: string }> {
  const path = join(work, `sparse-${size}`);
  const fd = openSync(path, 'w');
  for (const at of [0, Math.floor(size / 2), size - 16]) writeSync(fd, Buffer.from(`mark@${at}`.padEnd(16, '.')), 0, 16, at);
  closeSync(fd);
  const hasher = await createContentHasher();
  const s = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 4 << 20 })) {
    hasher.update(chunk as Buffer);
    s.update(chunk as Buffer);
  }
  const hash = hasher.digest();
  await h.ctx.blobs.adopt(path, hash);
  const row = await placeFile(h.ctx, ownerId, { parentId, name, hash, size });
  return { id: row.id, sha256: s.digest('hex') };
}

/** Fetches a zip link (made for http://haul.test) from `base` to `out`, sampling this process's RSS (the server runs in it) while the bytes pass. */
export async function fetchZip(base: string, url: string, out: string): Promise<{ res: Response; bytes: number; peakRss: number; startRss: number }> {
  const res = await fetch(url.replace('http://haul.test', base));
  expect(res.status).toBe(200);
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  let bytes = 0;
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const count = new Transform({ transform: (c: Buffer, _e, done) => ((bytes += c.length), done(null, c)) });
  await pipeline(Readable.fromWeb(res.body as any), count, createWriteStream(out));
  clearInterval(timer);
  return { res, bytes, peakRss, startRss };
}

/** A Haul listening on loopback, and its base address. */
export async function listening(h: TestHaul): Promise<string> {
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
}
