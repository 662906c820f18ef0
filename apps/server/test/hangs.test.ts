/**
 * Peers that hang: an origin that stops sending without closing, a swarm that goes quiet mid-download, a torrent
 * daemon that accepts connections and never answers. Each is given up on after its time limit, with a retry or a clear
 * error, so no worker waits forever.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import WebTorrent from 'webtorrent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { QbittorrentEngine } from '../src/offline/qbittorrent-engine.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { until } from './child-server.js';
import { startTestHaul, type TestHaul } from './helper.js';

const work = mkdtempSync(join(tmpdir(), 'haul-hangs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));


describe('peers that hang', { timeout: 90_000 }, () => {
  let h: TestHaul;
  let t: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: true, networkTimeoutSeconds: 1, stallTimeoutSeconds: 2 });
    h.offline.start();
    t = await h.signUp();
  });
  afterAll(() => h.destroy());
  const task = (id: string) => h.api('GET', `/drive/v1/tasks/${id}`, t.access_token).then((r) => r.body);
  const add = (url: string) => h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url } }).then((r) => r.body.task.id as string);

  it('gives up on an origin that stops sending, and continues from its bytes on the next try', async () => {
    const content = randomBytes(3 * 1024 * 1024);
    const ranges: string[] = [];
    const origin: Server = createServer((req, res) => {
      ranges.push(req.headers.range ?? '');
      const start = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
      res.writeHead(start ? 206 : 200, {
        'content-length': content.length - start,
        ...(start ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
      });
      // The first answer sends a third and then falls silent, connection open.
      if (!start) return void res.write(content.subarray(0, 1024 * 1024));
      res.end(content.subarray(start));
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    try {
      const id = await add(`http://127.0.0.1:${(origin.address() as { port: number }).port}/silent.bin`);
      const done = await until(() => task(id), (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR', 30_000);
      expect(done.phase, done.message).toBe('PHASE_TYPE_COMPLETE');
      expect(ranges[0]).toBe('');
      expect(ranges[1]).toBe('bytes=1048576-');
      expect((await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body.hash).toBe(await contentHashOf(content));
    } finally {
      origin.closeAllConnections();
      origin.close();
    }
  });

  it('fails a link whose server refuses the connection, instead of leaving it to its lease as a database outage would be', async () => {
    // A port nobody listens on: bound, then closed. ECONNREFUSED is also what an away database says.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const id = await add(`http://127.0.0.1:${port}/refused.bin`);
    const ended = await until(() => task(id), (x) => x.phase === 'PHASE_TYPE_ERROR' || /ECONNREFUSED|refused/i.test(x.message ?? ''), 30_000);
    expect(ended.message).toMatch(/ECONNREFUSED|refused/i);
    expect((await h.api('DELETE', `/drive/v1/tasks?task_ids=${id}`, t.access_token)).status).toBe(200);
  });

  it('stops an attempt whose origin trickles bytes below the floor, which silence alone would never catch', async () => {
    // A byte every 100 ms: never silent for the 2 s stall timeout, ten bytes a second against a floor of 1 KB/s.
    const origin: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': 1024 * 1024 });
      const drip = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    try {
      const id = await add(`http://127.0.0.1:${(origin.address() as { port: number }).port}/trickle.bin`);
      const slowed = await until(() => task(id), (x) => /under 1 KB\/s/.test(x.message ?? ''), 30_000);
      expect(slowed.message).toBe('Data arrived at under 1 KB/s for 2 seconds; trying again.');
      expect((await h.api('DELETE', `/drive/v1/tasks?task_ids=${id}`, t.access_token)).status).toBe(200);
    } finally {
      origin.closeAllConnections();
      origin.close();
    }
  });

  it('stops an attempt when the whole swarm goes quiet, saying so, instead of waiting forever', async () => {
    const tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
    await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
    const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
    const dir = join(work, 'quiet');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'quiet.bin'), randomBytes(8 * 1024 * 1024));
    // A slow seeder, so the download is still under way when it leaves.
    let seeding = true;
    const seeder = new WebTorrent({ dht: false, lsd: false, utp: false, natUpnp: false, natPmp: false, tracker: { wrtc: false }, uploadLimit: 256 * 1024 });
    try {
      const magnet = await new Promise<string>((r) => seeder.seed(join(dir, 'quiet.bin'), { announce: [announce] }, (tt) => r(tt.magnetURI)));
      const id = await add(magnet);
      await until(() => task(id), (x) => Number(x.params?.received ?? 0) > 0, 30_000);
      await new Promise<void>((r) => seeder.destroy(() => r()));
      seeding = false;
      const stalled = await until(() => task(id), (x) => /No data arrived for 2 seconds/.test(x.message ?? ''), 30_000);
      expect(stalled.phase).not.toBe('PHASE_TYPE_COMPLETE');
      await h.api('DELETE', `/drive/v1/tasks?task_ids=${id}`, t.access_token);
    } finally {
      if (seeding) await new Promise<void>((r) => seeder.destroy(() => r()));
      await new Promise<void>((r) => tracker.close(() => r()));
    }
  });

  it('gives up on a torrent daemon that accepts connections and never answers', async () => {
    const held: Socket[] = [];
    const daemon = createTcpServer((s) => void held.push(s));
    await new Promise<void>((r) => daemon.listen(0, '127.0.0.1', r));
    try {
      const engine = new QbittorrentEngine({
        url: `http://127.0.0.1:${(daemon.address() as { port: number }).port}/`,
        username: '',
        password: '',
        localRoot: work,
        daemonRoot: work,
        allowPrivateNetwork: true,
        timeoutMs: 1000,
      });
      const started = Date.now();
      const magnet = `magnet:?xt=urn:btih:${randomBytes(20).toString('hex')}`;
      await expect(engine.inspect(magnet, join(work, 'inspect'), AbortSignal.timeout(30_000), 20_000)).rejects.toThrow(/torrent daemon could not be reached/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(held.length).toBeGreaterThan(0);
    } finally {
      for (const s of held) s.destroy();
      daemon.close();
    }
  });
});
