import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { buildHaul } from '../src/app.js';
import { offlinePartPath } from '../src/offline/offline.service.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { mkdir, startTestHaul, type TestHaul, until } from './helper.js';

/** An HTTP origin on loopback that counts the body bytes it sends. */
function origin(content: Buffer) {
  const stats = { bodyBytes: 0, ranges: [] as string[], dropNext: false, slow: false };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/missing') {
      res.writeHead(404);
      return res.end();
    }
    const range = /bytes=(\d+)-/.exec(req.headers.range ?? '');
    if (range) stats.ranges.push(req.headers.range!);
    const start = range ? Number(range[1]) : 0;
    const body = content.subarray(start);
    res.writeHead(range ? 206 : 200, {
      'content-length': body.length,
      etag: '"e1"',
      'content-type': 'video/mp4',
      ...(range ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
    });
    if (stats.dropNext) {
      stats.dropNext = false;
      stats.bodyBytes += body.length / 2;
      res.write(body.subarray(0, body.length / 2));
      return setTimeout(() => res.destroy(), 30);
    }
    if (stats.slow) {
      // 64 KiB every 50 ms, so a test can stop the server half-way.
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        const chunk = body.subarray(at, at + 65536);
        at += chunk.length;
        stats.bodyBytes += chunk.length;
        if (at >= body.length) {
          clearInterval(timer);
          res.end(chunk);
        } else res.write(chunk);
      }, 50);
      return;
    }
    stats.bodyBytes += body.length;
    res.end(body);
  });
  return { server, stats };
}


describe('offline download over HTTP', () => {
  const content = randomBytes(1024 * 1024 + 3);
  const { server, stats } = origin(content);
  let h: TestHaul;
  let t: TokenResponse;
  let base: string;
  const task = (tok: string, id: string) => h.api('GET', `/drive/v1/tasks/${id}`, tok).then((r) => r.body);
  const add = (tok: string, url: string, parent_id = '') => h.api('POST', '/drive/v1/files', tok, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id });
  const finished = (tok: string, id: string) => until(() => task(tok, id), (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR');

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    h = await startTestHaul({ allowPrivateNetwork: true, taskLeaseSeconds: 1, dailyTaskLimit: 12 });
    h.offline.start();
    t = await h.signUp();
  });
  afterAll(async () => {
    server.close();
    await h.destroy().catch(() => undefined);
  });

  it('fetches a link into the chosen folder, with its name, type, platform and hash', async () => {
    const folder = await mkdir(h, t.access_token, 'Downloads');
    const res = await add(t.access_token, `${base}/videos/clip%20one.mp4?x=1`, folder);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ upload_type: 'UPLOAD_TYPE_URL', task: { type: 'offline', phase: 'PHASE_TYPE_PENDING', name: 'clip one.mp4' } });
    const done = await finished(t.access_token, res.body.task.id);
    expect(done).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 });
    const file = (await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body;
    expect(file).toMatchObject({ name: 'clip one.mp4', parent_id: folder, size: String(content.length), mime_type: 'video/mp4', hash: await contentHashOf(content) });
    expect(file.params.url).toBe(`${base}/videos/clip%20one.mp4?x=1`);
    const dl = await h.api('GET', file.web_content_link.replace('http://haul.test', ''));
    expect(Buffer.compare(dl.raw, content)).toBe(0);
    expect(existsSync(offlinePartPath(h.dataDir, res.body.task.id))).toBe(false);
  });

  it('completes at once, without a second transfer, content already fetched for anyone', async () => {
    // Slow origin: a transfer would take ~1 s; the server only reads the headers and stops.
    stats.slow = true;
    const before = stats.bodyBytes;
    const other = await h.signUp();
    const res = await add(other.access_token, `${base}/videos/clip%20one.mp4?x=1`);
    const done = await finished(other.access_token, res.body.task.id);
    stats.slow = false;
    expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
    expect(stats.bodyBytes - before).toBeLessThan(content.length / 4);
    const file = (await h.api('GET', `/drive/v1/files/${done.file_id}`, other.access_token)).body;
    expect(file.hash).toBe(await contentHashOf(content));
  });

  it('takes several links at once, one task each', async () => {
    const res = await add(t.access_token, `${base}/a.bin\n${base}/b.bin\n`);
    expect(res.body.tasks.map((x: any) => x.name)).toEqual(['a.bin', 'b.bin']);
    for (const x of res.body.tasks) expect((await finished(t.access_token, x.id)).phase).toBe('PHASE_TYPE_COMPLETE');
  });

  it('continues with Range after a dropped connection', async () => {
    stats.dropNext = true;
    stats.ranges = [];
    const res = await add(t.access_token, `${base}/dropped.bin`);
    const done = await finished(t.access_token, res.body.task.id);
    expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
    expect(stats.ranges.length).toBeGreaterThan(0);
    expect((await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body.hash).toBe(await contentHashOf(content));
  });

  it('fails a 404 with the reason, and retry makes a new task', async () => {
    const res = await add(t.access_token, `${base}/missing`);
    const failed = await finished(t.access_token, res.body.task.id);
    expect(failed).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: expect.stringMatching(/404/) });
    const retry = await h.api('POST', '/drive/v1/task', t.access_token, { id: res.body.task.id, create_type: 'RETRY', type: 'offline' });
    expect(retry.status).toBe(200);
    expect(retry.body.task.id).not.toBe(res.body.task.id);
    expect((await finished(t.access_token, retry.body.task.id)).phase).toBe('PHASE_TYPE_ERROR');
  });

  it('refuses bad links and more tasks than the daily limit', async () => {
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'not a link', '']) {
      const r = await add(t.access_token, url);
      expect(r.status, url).toBe(400);
    }
    const many = await add(t.access_token, Array.from({ length: 12 }, (_, i) => `${base}/n${i}.bin`).join('\n'));
    expect(many.status).toBe(403);
    expect(many.body.error).toBe('task_daily_create_limit');
  });
});

describe('pausing, continuing and clearing cloud downloads', () => {
  it('pauses a running download keeping its bytes, continues with Range, and clears finished tasks', async () => {
    const content = randomBytes(2 * 1024 * 1024);
    const { server, stats } = origin(content);
    stats.slow = true;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const h = await startTestHaul({ allowPrivateNetwork: true });
    h.offline.start();
    try {
      const t = await h.signUp();
      const other = await h.signUp();
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/pause.bin`;
      const r = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
      const id = r.body.task.id;
      const part = offlinePartPath(h.dataDir, id);
      const { statSync } = await import('node:fs');
      await until(async () => (existsSync(part) ? statSync(part).size : 0), (n) => n > 200_000);

      // Another account cannot pause it; a phase other than paused/pending is refused.
      expect((await h.api('PATCH', `/drive/v1/tasks/${id}`, other.access_token, { phase: 'PHASE_TYPE_PAUSED' })).status).toBe(404);
      const bad = await h.api('PATCH', `/drive/v1/tasks/${id}`, t.access_token, { phase: 'PHASE_TYPE_COMPLETE' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('invalid_argument');

      const paused = await h.api('PATCH', `/drive/v1/tasks/${id}`, t.access_token, { phase: 'PHASE_TYPE_PAUSED' });
      expect(paused.status).toBe(200);
      expect(paused.body.phase).toBe('PHASE_TYPE_PAUSED');
      // The worker notices within a progress report and stops; the bytes stay on disk and stop growing.
      await new Promise((r) => setTimeout(r, 2500));
      const kept = statSync(part).size;
      expect(kept).toBeGreaterThan(200_000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(statSync(part).size).toBe(kept);
      expect((await h.api('GET', `/drive/v1/tasks/${id}`, t.access_token)).body.phase).toBe('PHASE_TYPE_PAUSED');
      expect((await h.api('PATCH', `/drive/v1/tasks/${id}`, t.access_token, { phase: 'PHASE_TYPE_PAUSED' })).body.phase).toBe('PHASE_TYPE_PAUSED');

      stats.slow = false;
      stats.ranges = [];
      const resumed = await h.api('PATCH', `/drive/v1/tasks/${id}`, t.access_token, { phase: 'PHASE_TYPE_PENDING' });
      expect(resumed.body.phase).toBe('PHASE_TYPE_PENDING');
      const done = await until(() => h.api('GET', `/drive/v1/tasks/${id}`, t.access_token).then((x) => x.body), (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR');
      expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
      expect(stats.ranges[0]).toMatch(new RegExp(`^bytes=${kept}-`));
      expect((await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body.hash).toBe(await contentHashOf(content));
      // A finished download cannot be paused.
      expect((await h.api('PATCH', `/drive/v1/tasks/${id}`, t.access_token, { phase: 'PHASE_TYPE_PAUSED' })).status).toBe(400);

      // Clear: unknown phases are refused; the other account's finished tasks stay; with delete_files the file goes.
      const o = await h.api('POST', '/drive/v1/files', other.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
      await until(() => h.api('GET', `/drive/v1/tasks/${o.body.task.id}`, other.access_token).then((x) => x.body.phase), (p) => p === 'PHASE_TYPE_COMPLETE');
      expect((await h.api('POST', '/drive/v1/tasks:clear', t.access_token, { type: 'offline', phases: ['DONE'] })).status).toBe(400);
      const cleared = await h.api('POST', '/drive/v1/tasks:clear', t.access_token, { type: 'offline', phases: ['PHASE_TYPE_COMPLETE'], delete_files: true });
      expect(cleared.body).toEqual({ count: 1 });
      expect((await h.api('GET', '/drive/v1/tasks?type=offline', t.access_token)).body.tasks).toEqual([]);
      expect((await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).status).toBe(404);
      expect((await h.api('GET', '/drive/v1/tasks?type=offline', other.access_token)).body.tasks).toHaveLength(1);
    } finally {
      server.close();
      await h.destroy();
    }
  });
});

describe('offline download safety', () => {
  it('refuses loopback and private links unless private networks are allowed', async () => {
    const h = await startTestHaul();
    try {
      const t = await h.signUp();
      for (const url of ['http://127.0.0.1/x', 'http://0x7f.0.0.1/x', 'http://2130706433/x', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://localhost:8080/x', 'http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/x', 'http://192.168.0.1/x']) {
        const r = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
        expect(r.status, url).toBe(400);
        expect(r.body.error_description, url).toMatch(/private or reserved/);
      }
      expect((await h.api('GET', '/drive/v1/tasks?type=offline', t.access_token)).body.tasks).toEqual([]);
    } finally {
      await h.destroy();
    }
  });

  it('fails a download larger than the space left, keeping nothing', async () => {
    const content = randomBytes(300_000);
    const { server } = origin(content);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const h = await startTestHaul({ allowPrivateNetwork: true, defaultQuotaBytes: 100_000 });
    h.offline.start();
    try {
      const t = await h.signUp();
      const r = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/big.bin` }, parent_id: '' });
      const done = await until(() => h.api('GET', `/drive/v1/tasks/${r.body.task.id}`, t.access_token).then((x) => x.body), (x) => x.phase === 'PHASE_TYPE_ERROR' || x.phase === 'PHASE_TYPE_COMPLETE');
      expect(done).toMatchObject({ phase: 'PHASE_TYPE_ERROR', message: expect.stringMatching(/larger than the space left/) });
      expect(existsSync(offlinePartPath(h.dataDir, r.body.task.id))).toBe(false);
    } finally {
      server.close();
      await h.destroy();
    }
  });

  it('resumes after the server stops mid-download, from the bytes on disk', async () => {
    const content = randomBytes(2 * 1024 * 1024);
    const { server, stats } = origin(content);
    stats.slow = true;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const h = await startTestHaul({ allowPrivateNetwork: true, taskLeaseSeconds: 1 });
    h.offline.start();
    try {
      const t = await h.signUp();
      const r = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/slow.bin` }, parent_id: '' });
      const part = offlinePartPath(h.dataDir, r.body.task.id);
      await until(async () => (existsSync(part) ? (await import('node:fs')).statSync(part).size : 0), (n) => n > 200_000);
      // Stop this server; its task is left RUNNING as after a crash.
      await h.offline.stop();
      await h.app.close();
      stats.slow = false;
      stats.ranges = [];
      const again = await buildHaul(h.ctx.config, { logger: false });
      again.offline.start();
      try {
        const done = await until(
          async () => (await again.app.inject({ url: `/drive/v1/tasks/${r.body.task.id}`, headers: { authorization: `Bearer ${t.access_token}` } })).json(),
          (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR',
        );
        expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
        expect(stats.ranges.length).toBeGreaterThan(0);
        const file = (await again.app.inject({ url: `/drive/v1/files/${done.file_id}`, headers: { authorization: `Bearer ${t.access_token}` } })).json();
        expect(file.hash).toBe(await contentHashOf(content));
      } finally {
        await again.close();
      }
    } finally {
      server.close();
      await h.destroy().catch(() => undefined);
    }
  });
});
