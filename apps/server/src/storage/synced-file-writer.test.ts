import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHashOf } from './content-hash.js';
import { appendBatched, BackgroundSync, writeSynced } from './synced-file-writer.js';

/** `data` cut into chunks of uneven sizes (1 byte to 9 KiB), as a socket hands them over. */
function chunked(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = [1, 9 * 1024, 700, 4096, 3, 8191][i % 6]!;
    out.push(data.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe(writeSynced.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'haul-synced-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every byte in order across batches, hashes them, and syncs in the background and at the end', async () => {
    const data = randomBytes(300 * 1024 + 17);
    const path = join(dir, 'a');
    const fh = await open(path, 'wx');
    const synced: number[] = [];
    const got = await writeSynced(Readable.from(chunked(data)), fh, { batchBytes: 8 * 1024, syncEveryBytes: 32 * 1024, onSynced: (n) => synced.push(n) });
    await fh.close();
    expect(got).toEqual({ hash: await contentHashOf(data), size: data.length });
    expect(readFileSync(path).equals(data)).toBe(true);
    // Syncs ran while bytes were still coming, each covering more; the last covers them all.
    expect(synced.length).toBeGreaterThanOrEqual(2);
    expect(synced).toEqual([...synced].sort((a, b) => a - b));
    expect(synced.at(-1)).toBe(data.length);
  });

  it('hashes an empty source as empty', async () => {
    const fh = await open(join(dir, 'empty'), 'wx');
    expect(await writeSynced(Readable.from([]), fh)).toEqual({ hash: await contentHashOf(''), size: 0 });
    await fh.close();
  });

  it('rejects when the source fails, with no write still going into the file', async () => {
    const path = join(dir, 'b');
    const fh = await open(path, 'wx');
    async function* failing() {
      for (let i = 0; i < 40; i++) yield randomBytes(5000);
      throw new Error('connection reset');
    }
    const synced: number[] = [];
    await expect(writeSynced(Readable.from(failing()), fh, { batchBytes: 16 * 1024, onSynced: (n) => synced.push(n) })).rejects.toThrow('connection reset');
    const size = statSync(path).size;
    await new Promise((r) => setTimeout(r, 50));
    expect(statSync(path).size).toBe(size);
    // Never reported as synced whole: the caller must not place it.
    expect(synced).toEqual([]);
    await fh.close();
  });
});

describe(appendBatched.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'haul-append-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes pieces at their offsets over several calls, feeding every chunk in order, and syncs across the calls', async () => {
    const data = randomBytes(200 * 1024 + 5);
    const path = join(dir, 'a');
    await (await open(path, 'wx')).close();
    const synced: number[] = [];
    const sync = new BackgroundSync(0, (n) => synced.push(n));
    const fed: Buffer[] = [];
    // Each call writes less than syncEveryBytes (40 KiB); together they pass it several times.
    const cuts = [0, 30_000, 60_000, 60_001, 90_000, 120_000, 150_000, 180_000, data.length];
    for (let i = 1; i < cuts.length; i++) {
      const fh = await open(path, 'r+');
      const piece = data.subarray(cuts[i - 1], cuts[i]);
      const n = await appendBatched(Readable.from(chunked(piece)), fh, { position: cuts[i - 1]!, batchBytes: 4096, syncEveryBytes: 40 * 1024, sync, feed: (c) => void fed.push(c) });
      expect(n).toBe(piece.length);
      await sync.release(fh);
      // A sync that falls due while another runs is skipped; waiting here makes the count not depend on disk speed.
      await sync.settle();
    }
    expect(readFileSync(path).equals(data)).toBe(true);
    expect(Buffer.concat(fed).equals(data)).toBe(true);
    expect(synced.length).toBeGreaterThanOrEqual(2);
    expect(synced).toEqual([...synced].sort((a, b) => a - b));
  });

  it('stops when the feed throws, with no write still going into the file, and keeps what was written before', async () => {
    const data = randomBytes(64 * 1024);
    const path = join(dir, 'b');
    const fh = await open(path, 'wx');
    const sync = new BackgroundSync();
    let seen = 0;
    const feed = (c: Buffer) => {
      seen += c.length;
      if (seen > 40 * 1024) throw new Error('too large');
    };
    await expect(appendBatched(Readable.from(chunked(data)), fh, { position: 0, batchBytes: 8192, sync, feed })).rejects.toThrow('too large');
    const size = statSync(path).size;
    await new Promise((r) => setTimeout(r, 50));
    expect(statSync(path).size).toBe(size);
    expect(size).toBeGreaterThan(0);
    expect(readFileSync(path).equals(data.subarray(0, size))).toBe(true);
    await sync.release(fh);
  });

  it('keeps every byte a failing source delivered, fed and written before it rejects', async () => {
    const data = randomBytes(30 * 1024 + 3);
    const path = join(dir, 'd');
    const fh = await open(path, 'wx');
    async function* dropped() {
      yield* chunked(data);
      throw new Error('connection reset');
    }
    let fed = 0;
    const sync = new BackgroundSync();
    await expect(appendBatched(Readable.from(dropped()), fh, { position: 0, batchBytes: 16 * 1024, sync, feed: (c) => void (fed += c.length) })).rejects.toThrow('connection reset');
    await sync.release(fh);
    expect(fed).toBe(data.length);
    expect(readFileSync(path).equals(data)).toBe(true);
  });

  it('reports a failed background sync to the next caller, once', async () => {
    const path = join(dir, 'c');
    const fh = await open(path, 'wx');
    const sync = new BackgroundSync();
    await fh.close();
    // A sync on a closed handle fails as a failing disk would.
    sync.maybeStart(fh, 1, 1);
    await expect(sync.settle()).rejects.toThrow();
    await expect(sync.settle()).resolves.toBeUndefined();
  });
});
