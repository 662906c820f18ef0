/**
 * A 5 GiB zip through Haul is written as ZIP64 with its exact Content-Length, memory flat, and 7zz and unzip read it
 * back. It runs in the SQLite pass only (scripts/test.mjs): what it checks is the zip writer, not the database, and
 * it moves 5 GiB through the disk several times.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { Z7 } from './archive-tools.js';
import { need } from './child-server.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';
import { fetchZip, GiB, listening, sparseFile } from './zip-tools.js';

const SEVEN = Z7();
need('unzip', 'unzip');

describe('ZIP64', () => {
  let h: TestHaul;
  let base: string;
  let owner: TokenResponse;
  const work = mkdtempSync(join(tmpdir(), 'haul-zip64-'));

  beforeAll(async () => {
    h = await startTestHaul({ dataDir: join(work, 'data') });
    base = await listening(h);
    owner = await h.signUp();
  });
  afterAll(async () => {
    await h?.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes a 5 GiB zip as ZIP64 that 7zz and unzip read back', async () => {
    const free = statfsSync(work);
    // The zip lands on disk for the tools: 5 GiB and some room.
    expect(free.bavail * free.bsize, 'this test needs 8 GiB free on the temporary disk').toBeGreaterThan(8 * GiB);
    const folder = await mkdir(h, owner.access_token, 'Huge');
    const huge = await sparseFile(h, owner.sub, work, folder, 'huge.bin', 5 * GiB);
    const link = await h.api('POST', '/drive/v1/files:zip', owner.access_token, { ids: [folder] });
    const file = join(work, 'huge.zip');
    const got = await fetchZip(base, link.body.url, file);
    expect(Number(got.res.headers.get('content-length'))).toBe(got.bytes);
    // All stored: the size the link announced is the zip's exact size.
    expect(Number(link.body.size)).toBe(got.bytes);
    expect(got.peakRss - got.startRss).toBeLessThan(200 * 1024 * 1024);
    // The end records: a ZIP64 end of central directory and its locator before the classic one.
    const size = statSync(file).size;
    const fd = openSync(file, 'r');
    const tail = Buffer.alloc(22 + 20 + 56);
    readSync(fd, tail, 0, tail.length, size - tail.length);
    closeSync(fd);
    expect(tail.readUInt32LE(0)).toBe(0x06064b50);
    expect(tail.readUInt32LE(56)).toBe(0x07064b50);
    expect(tail.readUInt32LE(76)).toBe(0x06054b50);
    const listed = spawnSync(SEVEN, ['l', '-slt', file], { encoding: 'utf8' });
    expect(listed.stdout).toContain(`Size = ${5 * GiB}`);
    // unzip checks every CRC; 7zz streams the file out (its CRC checked too) for its SHA-256.
    expect(spawnSync('unzip', ['-tq', file]).status).toBe(0);
    const s = createHash('sha256');
    const p = spawn(SEVEN, ['x', '-so', file, 'Huge/huge.bin']);
    for await (const chunk of p.stdout) s.update(chunk as Buffer);
    expect(s.digest('hex')).toBe(huge.sha256);
    rmSync(file);
  }, 600_000);
});
