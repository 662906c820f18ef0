/**
 * Uploads after a crash: the states a kill leaves behind, made exactly (all bytes written but the file never placed;
 * bytes already moved into the store), are finished without the client's help, by a HEAD or at start-up; a creation
 * asked again is the same upload; an upload nobody resumes gives its space back within a day; files on disk that no
 * row explains are reclaimed, and nothing else is.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { buildHaul } from '../src/app.js';
import { startJobs } from '../src/jobs.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { reconcileOrphans } from '../src/ops/reconcile.js';
import { resumeHasher, saveHasher } from '../src/storage/resumable-hash.js';
import { expireUploads, finishStrandedUploads } from '../src/uploads/uploads.service.js';
import { blobExists, ManualClock, startTestHaul, type TestHaul } from './helper.js';

describe('uploads after a crash', () => {
  const clock = new ManualClock(Date.now());
  let h: TestHaul;
  let t: TokenResponse;
  /** Moves the clock on; the access token is refreshed, as a client would after that long. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    t = (await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: t.refresh_token })).body;
  };
  let base: string;
  beforeAll(async () => {
    // The states are made in the local uploads folder; their counterparts in a bucket are test/s3-uploads.test.ts.
    h = await startTestHaul({ blobStore: 'local', s3: null }, clock);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
    t = await h.signUp();
  });
  afterAll(() => h.destroy());

  const create = async (name: string, size: number, extra: object = {}) => {
    const res = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', parent_id: '', name, size: String(size), ...extra });
    expect(res.status).toBe(200);
    return { id: res.body.resumable.params.key as string, taskId: res.body.task.id as string, url: `${base}/drive/v1/uploads/${res.body.resumable.params.key}` };
  };
  /** What a kill after the last byte leaves: every byte in the upload's file, no file placed. */
  const strand = (id: string, content: Buffer) => writeFileSync(join(h.dataDir, 'uploads', id), content);
  /** Sets a file's times two hours back: older than reconciliation's grace period. */
  const old = (path: string) => utimesSync(path, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
  const put = (path: string, old_: boolean) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'x');
    if (old_) old(path);
    return path;
  };
  const task = async (id: string) => (await h.api('GET', `/drive/v1/tasks/${id}`, t.access_token)).body;
  const fileOf = async (taskId: string) => (await h.api('GET', `/drive/v1/files/${(await task(taskId)).file_id}`, t.access_token)).body;

  it('a standard tus client that finds every byte there gets its file: the HEAD finishes the upload', async () => {
    const content = randomBytes(300_000);
    const up = await create('stranded.bin', content.length);
    strand(up.id, content);
    // tus-js-client asks for the offset, finds it complete, and sends nothing more.
    await new Promise<void>((resolve, reject) => {
      new tus.Upload(content, { uploadUrl: up.url, headers: { authorization: `Bearer ${t.access_token}` }, retryDelays: [], onSuccess: () => resolve(), onError: reject }).start();
    });
    expect((await task(up.taskId)).phase).toBe('PHASE_TYPE_COMPLETE');
    expect((await fileOf(up.taskId)).hash).toBe(await contentHashOf(content));
    expect(existsSync(join(h.dataDir, 'uploads', up.id))).toBe(false);
  });

  it('never tells a client whose upload it could not finish that it is complete: the client asks again and gets its file', async () => {
    const content = randomBytes(150_000);
    const up = await create('blocked.bin', content.length);
    strand(up.id, content);
    // The store's folder for this content cannot be made (a file stands in its place), as on a disk that fails.
    const hash = await contentHashOf(content);
    const blocker = join(h.dataDir, 'blobs', hash.slice(0, 2));
    writeFileSync(blocker, 'x');
    const failed = await fetch(up.url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('upload-offset')).toBeNull();
    expect((await task(up.taskId)).phase).toBe('PHASE_TYPE_RUNNING');
    // A tus client retries on a server fault; by its retry the disk is fine again, and it gets its file.
    let retried = 0;
    await new Promise<void>((resolve, reject) => {
      const retry = () => {
        retried++;
        rmSync(blocker, { force: true });
        return true;
      };
      new tus.Upload(content, { uploadUrl: up.url, headers: { authorization: `Bearer ${t.access_token}` }, retryDelays: [200], onShouldRetry: retry, onSuccess: () => resolve(), onError: reject }).start();
    });
    expect(retried).toBe(1);
    expect((await fileOf(up.taskId)).hash).toBe(hash);
  });

  it('finishes an upload whose bytes were already moved into the store when the server died', async () => {
    const content = randomBytes(200_000);
    const up = await create('half-finished.bin', content.length);
    const data = join(h.dataDir, 'uploads', up.id);
    strand(up.id, content);
    const hasher = await resumeHasher(data, null, content.length);
    await saveHasher(`${data}.b3`, hasher, content.length);
    hasher.close();
    await h.ctx.blobs.adopt(data, await contentHashOf(content));
    const head = await fetch(up.url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(content.length));
    expect(head.headers.get('haul-file-id')).toBe((await task(up.taskId)).file_id);
    expect((await fileOf(up.taskId)).hash).toBe(await contentHashOf(content));
  });

  it('finishes stranded uploads at start-up, exactly once', async () => {
    const content = randomBytes(100_000);
    const up = await create('at-start.bin', content.length);
    strand(up.id, content);
    // A second process on the same data starts its jobs (as after a restart) while this one also gets a HEAD.
    const other = await buildHaul(h.ctx.config, { logger: false });
    const stop = startJobs(other.ctx, other.app.log);
    try {
      await fetch(up.url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
      const end = Date.now() + 10_000;
      while ((await task(up.taskId)).phase !== 'PHASE_TYPE_COMPLETE' && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    } finally {
      stop();
      await other.app.close();
      await other.ctx.db.destroy();
    }
    expect((await task(up.taskId)).phase).toBe('PHASE_TYPE_COMPLETE');
    const named = (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files.filter((f: { name: string }) => f.name.startsWith('at-start'));
    expect(named.map((f: { name: string }) => f.name)).toEqual(['at-start.bin']);
  });

  it('tells a client that comes back after the server placed its upload on its own that it is complete', async () => {
    const content = randomBytes(50_000);
    const up = await create('placed-before.bin', content.length);
    strand(up.id, content);
    await finishStrandedUploads(h.ctx, h.ctx.uploads, h.app.log);
    expect((await task(up.taskId)).phase).toBe('PHASE_TYPE_COMPLETE');
    // The row is gone; tus-js-client resuming after the restart asks for the offset and must not be told "no such upload".
    await new Promise<void>((resolve, reject) => {
      new tus.Upload(content, { uploadUrl: up.url, headers: { authorization: `Bearer ${t.access_token}` }, retryDelays: [], onSuccess: () => resolve(), onError: reject }).start();
    });
    const head = await fetch(up.url, { method: 'HEAD', headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(content.length));
    expect(head.headers.get('haul-file-id')).toBe((await task(up.taskId)).file_id);
    // Another account asking about it learns nothing.
    const other = await h.signUp();
    expect((await fetch(up.url, { method: 'HEAD', headers: { authorization: `Bearer ${other.access_token}`, 'tus-resumable': '1.0.0' } })).status).toBe(404);
  });

  it('answers a creation asked again (its answer was lost) with the same upload, reserving the space once', async () => {
    const first = await create('again.bin', 5000, { id: 'abcdefghijklmnopqrstuvwx' });
    const again = await create('again.bin', 5000, { id: 'abcdefghijklmnopqrstuvwx' });
    expect(again).toEqual(first);
    const other = await create('again.bin', 5000, { id: 'abcdefghijklmnopqrstuvw2' });
    expect(other.id).not.toBe(first.id);
    const rows = await h.ctx.db.selectFrom('uploads').select('id').where('name', '=', 'again.bin').execute();
    expect(rows.length).toBe(2);
    // Ten at once: still one upload.
    const burst = await Promise.all(Array.from({ length: 10 }, () => create('burst.bin', 7000, { id: 'burst-key-000000000000000' })));
    expect(new Set(burst.map((b) => b.id)).size).toBe(1);
  });

  it('gives the space of an upload nobody resumes back after a day, and keeps one that is receiving bytes', async () => {
    const idle = await create('idle.bin', 4000);
    const busy = await create('busy.bin', 4000);
    await advance(20 * 3600_000);
    const patch = await fetch(busy.url, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${t.access_token}`, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: randomBytes(1000),
    });
    expect(patch.status).toBe(204);
    await advance(5 * 3600_000);
    await expireUploads(h.ctx, h.ctx.uploads);
    const left = (await h.ctx.db.selectFrom('uploads').select('id').execute()).map((r) => r.id);
    expect(left).not.toContain(idle.id);
    expect(left).toContain(busy.id);
    expect((await task(idle.taskId)).phase).toBe('PHASE_TYPE_ERROR');
    clock.t = Date.now();
  });

  it('reclaims upload and cloud download files that no row explains, once older than the grace period, and nothing in use', async () => {
    const gone = [
      put(join(h.dataDir, 'uploads', 'NoSuchUpload00000000'), true),
      put(join(h.dataDir, 'uploads', 'NoSuchUpload00000000.b3'), true),
      put(join(h.dataDir, 'offline', 'NoSuchTask0000000000.part'), true),
    ];
    const live = await create('live.bin', 3000);
    const kept = [put(join(h.dataDir, 'uploads', 'NoSuchUpload00000001'), false), join(h.dataDir, 'uploads', live.id)];
    old(join(h.dataDir, 'uploads', live.id));
    const removed = await reconcileOrphans(h.ctx);
    // Whatever the store: nothing in it is older than the grace period, so only these go.
    expect(removed).toEqual({ uploads: 2, blobs: 0, parts: 0, offline: 1 });
    for (const p of gone) expect(existsSync(p), p).toBe(false);
    for (const p of kept) expect(existsSync(p), p).toBe(true);
    // Every file placed earlier in this file still reads back.
    const files = (await h.api('GET', '/drive/v1/files?parent_id=', t.access_token)).body.files;
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(await blobExists(h, f.hash), f.name).toBe(true);
  });

  it('reclaims stray files in the local blob folder (local store)', async () => {
    // The folder layout is the local store's own; the bucket's counterpart is test/s3-reconcile.test.ts.
    const local = await startTestHaul({ blobStore: 'local', s3: null });
    try {
      const kept0 = await local.putFile(await local.signUp(), '', 'kept.bin', 'kept bytes');
      const hashLike = (c: string) => c.repeat(64);
      const blobPath = (hash: string) => join(local.dataDir, 'blobs', hash.slice(0, 2), hash.slice(2, 4), hash);
      const gone = [put(join(local.dataDir, 'blobs', 'tmp', 'crashed.part'), true), put(blobPath(hashLike('a')), true)];
      const thumb = hashLike('b');
      await local.ctx.db.insertInto('media_thumbnails').values({ hash: hashLike('c'), size: 'SIZE_SMALL', thumb_hash: thumb, mime_type: 'image/webp', width: 1, height: 1, created_at: 0 }).execute();
      old(blobPath(kept0.hash));
      const kept = [
        blobPath(kept0.hash), // a file's bytes: kept by its blob row, however old
        put(blobPath(thumb), true), // a thumbnail: kept by its media row, not a blob row
        put(blobPath(hashLike('d')), false), // too fresh: may be a blob whose row is being committed
        put(join(local.dataDir, 'blobs', 'tmp', 'writing.part'), false),
      ];
      expect(await reconcileOrphans(local.ctx)).toEqual({ uploads: 0, blobs: 1, parts: 1, offline: 0 });
      for (const p of gone) expect(existsSync(p), p).toBe(false);
      for (const p of kept) expect(existsSync(p), p).toBe(true);
    } finally {
      await local.destroy();
    }
  });
});
