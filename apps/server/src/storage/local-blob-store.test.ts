import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHashOf } from './content-hash.js';
import { LocalBlobStore } from './local-blob-store.js';

describe(LocalBlobStore.name, () => {
  const root = mkdtempSync(join(tmpdir(), 'haul-blobs-'));
  const sut = new LocalBlobStore(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names a blob by the BLAKE3 hash of its bytes and stores it once', async () => {
    const data = Buffer.from('hello blob');
    const a = await sut.put(Readable.from([data]));
    const b = await sut.put(Readable.from([data.subarray(0, 5), data.subarray(5)]));
    expect(a).toEqual({ hash: await contentHashOf(data), size: data.length });
    expect(b).toEqual(a);
    expect(readFileSync(sut.pathOf(a.hash)).toString()).toBe('hello blob');
    // The second copy's temporary file is removed after the answer.
    await expect.poll(() => readdirSync(join(root, 'tmp'))).toEqual([]);
  });

  it('leaves nothing visible when the source fails half-way', async () => {
    async function* failing() {
      yield Buffer.from('partial data');
      throw new Error('connection reset');
    }
    await expect(sut.put(Readable.from(failing()))).rejects.toThrow('connection reset');
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    const partialHash = await contentHashOf('partial data');
    expect(await sut.has(partialHash)).toBe(false);
  });

  it('has every byte on the disk before the blob takes its name', async () => {
    const data = randomBytes(200 * 1024 + 5);
    const hash = await contentHashOf(data);
    const seen: { bytes: number; placed: boolean }[] = [];
    const small = new LocalBlobStore(root, { batchBytes: 8 * 1024, syncEveryBytes: 24 * 1024, onSynced: (bytes) => seen.push({ bytes, placed: existsSync(small.pathOf(hash)) }) });
    const chunks = Array.from({ length: Math.ceil(data.length / 3000) }, (_, i) => data.subarray(i * 3000, (i + 1) * 3000));
    expect(await small.put(Readable.from(chunks))).toEqual({ hash, size: data.length });
    // The whole file was synced while still unnamed; only then did it appear, complete.
    expect(seen.at(-1)).toEqual({ bytes: data.length, placed: false });
    expect(seen.length).toBeGreaterThan(1);
    expect(readFileSync(small.pathOf(hash)).equals(data)).toBe(true);
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
  });

  it('leaves no blob and no temporary file when the source fails after several batches', async () => {
    const small = new LocalBlobStore(root, { batchBytes: 4 * 1024, syncEveryBytes: 16 * 1024 });
    const sent: Buffer[] = [];
    async function* failing() {
      for (let i = 0; i < 30; i++) yield (sent[i] = randomBytes(2500));
      throw new Error('connection reset');
    }
    await expect(small.put(Readable.from(failing()))).rejects.toThrow('connection reset');
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    expect(await small.has(await contentHashOf(Buffer.concat(sent)))).toBe(false);
  });

  it('refuses anything but a hash as a blob name', () => {
    expect(() => sut.pathOf('../../etc/passwd')).toThrow();
    expect(() => sut.read('ABC')).toThrow();
  });
});
