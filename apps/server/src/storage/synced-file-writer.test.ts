import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHashOf } from './content-hash.js';
import { writeSynced } from './synced-file-writer.js';

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
