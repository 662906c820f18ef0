import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
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

  it('refuses anything but a hash as a blob name', () => {
    expect(() => sut.pathOf('../../etc/passwd')).toThrow();
    expect(() => sut.read('ABC')).toThrow();
  });
});
