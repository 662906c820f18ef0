/**
 * A full disk, for real: the data folder lives on a small tmpfs. An upload that does not fit fails with the error
 * object (507), shows nothing, and continues from its bytes once space is freed; a cloud download that does not fit
 * fails saying so and gives its bytes back; a thumbnail that cannot be stored is not taken for content without a
 * picture; reads keep working throughout.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { contentHashOf } from '../src/storage/content-hash.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { createProven } from './upload-proof.js';

const MiB = 1024 * 1024;
/** The disk: room for the database and a few small files, not for the large ones. */
const mount = (dir: string, size: string, remount = false) =>
  execFileSync('mount', ['-t', 'tmpfs', '-o', `${remount ? 'remount,' : ''}size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });

describe('a full disk', { timeout: 120_000 }, () => {
  let disk: string;
  let h: TestHaul;
  let t: TokenResponse;
  let base: string;
  let origin: Server;
  const big = randomBytes(24 * MiB);
  beforeAll(async () => {
    disk = mkdtempSync(join(tmpdir(), 'haul-disk-'));
    try {
      mount(disk, '16m');
    } catch (err) {
      throw new Error(`This test mounts a small tmpfs as the data folder and needs root (mount -t tmpfs): ${(err as Error).message}`);
    }
    const dataDir = join(disk, 'data');
    mkdirSync(dataDir);
    h = await startTestHaul({ dataDir, allowPrivateNetwork: true });
    h.offline.start();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    t = await h.signUp();
    origin = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': big.length });
      res.end(big);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    origin?.close();
    await h?.destroy().catch(() => undefined);
    execFileSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  const patch = (url: string, offset: number, body: Buffer) =>
    fetch(url, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(body),
    });
  const names = async () => (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files.map((f: { name: string }) => f.name);

  it('fails an upload that does not fit with the error object, and continues it once space is freed', async () => {
    const small = randomBytes(100_000);
    const kept = await h.putFile(t, '', 'kept.bin', small);
    const res = await createProven((b) => h.api('POST', '/drive/v1/files', t.access_token, b), { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name: 'big.bin', size: String(big.length), hash: await contentHashOf(big) }, big);
    const url = `${base}/drive/v1/uploads/${res.body.resumable.params.key}`;
    const full = await patch(url, 0, big);
    const fullBody = await full.clone().text();
    expect(full.status, fullBody).toBe(507);
    expect(await full.json()).toMatchObject({ error: 'resource_exhausted', error_description: expect.stringMatching(/disk is full/) });
    // Nothing shows, and reading what was stored before still works.
    expect(await names()).toEqual(['kept.bin']);
    const link = (await h.api('GET', `/drive/v1/files/${kept.id}`, t.access_token)).body.web_content_link.replace('http://haul.test', '');
    const read = await h.api('GET', link);
    expect(createHash('sha256').update(read.raw).digest('hex')).toBe(createHash('sha256').update(small).digest('hex'));

    // Space is freed (a bigger disk): the upload continues from the bytes it kept.
    mount(disk, '96m', true);
    const head = await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(big.length);
    expect((await patch(url, offset, big.subarray(offset))).status).toBe(204);
    const file = (await h.api('GET', `/drive/v1/tasks/${res.body.task.id}`, t.access_token)).body;
    expect(file.phase).toBe('PHASE_TYPE_COMPLETE');
    expect((await h.api('GET', `/drive/v1/files/${file.file_id}`, t.access_token)).body.hash).toBe(await contentHashOf(big));
  });

  it('fails a cloud download that does not fit, saying so, and gives its bytes back', async () => {
    // The disk now holds the big upload: a second copy of 24 MiB cannot fit in what is left.
    mount(disk, '40m', true);
    const url = `http://127.0.0.1:${(origin.address() as { port: number }).port}/other.bin`;
    // Different bytes from the stored ones, so nothing completes from the store.
    big[0] = big[0]! ^ 0xff;
    const res = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url } });
    const end = Date.now() + 30_000;
    let task = res.body.task;
    while (task.phase !== 'PHASE_TYPE_ERROR' && task.phase !== 'PHASE_TYPE_COMPLETE' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      task = (await h.api('GET', `/drive/v1/tasks/${task.id}`, t.access_token)).body;
    }
    expect(task.phase, JSON.stringify(task)).toBe('PHASE_TYPE_ERROR');
    expect(task.message).toMatch(/disk is full/);
    expect(readdirSync(join(disk, 'data', 'offline')).filter((f) => f.startsWith(task.id))).toEqual([]);
    expect(await names()).toEqual(['big.bin', 'kept.bin'].sort());
  });

  it('answers a thumbnail it cannot store with 507, records nothing, and makes it once space is freed', async () => {
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const photo = await h.putFile(t, '', 'photo.png', png);
    // Fill what is left of the disk.
    const filler = join(disk, 'filler');
    const fd = openSync(filler, 'w');
    try {
      for (;;) writeSync(fd, Buffer.alloc(256 * 1024));
    } catch (err) {
      expect((err as { code?: string }).code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
    const got = await h.api('GET', `/drive/v1/files/${photo.id}`, t.access_token);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    const link = got.body.thumbnail_link.replace('http://haul.test', '');
    const full = await h.api('GET', link);
    expect(full.status).toBe(507);
    expect(full.body).toMatchObject({ error: 'resource_exhausted' });
    expect(readdirSync(join(disk, 'data', 'blobs', 'tmp'))).toEqual([]);
    rmSync(filler);
    const made = await h.api('GET', link);
    expect(made.status).toBe(200);
    expect(made.headers['content-type']).toBe('image/webp');
  });
});
