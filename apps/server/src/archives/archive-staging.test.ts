import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHashOf } from '../storage/content-hash.js';
import { hashStaged, stageEntry } from './archive-staging.js';
import { prlimitPath, SevenZipError } from './seven-zip.js';

const work = mkdtempSync(join(tmpdir(), 'haul-staging-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A stand-in for 7zz that writes `bytes` bytes to standard output whatever it is asked: a decoder whose header lied. */
function fakeSevenZip(bytes: number): string {
  const bin = join(work, `fake-7zz-${bytes}`);
  writeFileSync(bin, `#!/bin/sh\nexec head -c ${bytes} /dev/zero\n`);
  chmodSync(bin, 0o755);
  return bin;
}

const src = { path: join(work, 'any.zip'), name: 'any.zip' };

describe(stageEntry.name, () => {
  it('runs under prlimit here (util-linux), so the kernel holds 7zz to the size declared', () => {
    expect(prlimitPath()).not.toBeNull();
  });

  it('stops an entry that writes past its declared size, leaving no more than that size on disk', async () => {
    const dir = join(work, 'over');
    const staged = await stageEntry(dir, src, 'x', { bin: fakeSevenZip(5_000_000), password: '', timeoutMs: 30_000 }, false, 1000);
    const err = await staged.done.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SevenZipError);
    expect((err as SevenZipError).kind).toBe('too_large');
    expect(statSync(staged.path).size).toBeLessThanOrEqual(1000);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('writes an entry of exactly its declared size into the folder, hashed as the store would', async () => {
    const dir = join(work, 'exact');
    const staged = await stageEntry(dir, src, 'x', { bin: fakeSevenZip(70_000), password: '', timeoutMs: 30_000 }, false, 70_000);
    await staged.done;
    expect(await staged.written()).toBe(70_000);
    expect(await hashStaged(staged.path)).toEqual({ hash: await contentHashOf(Buffer.alloc(70_000)), size: 70_000 });
  });
});
