/**
 * The URL checker against real servers on loopback: an http file (HEAD), a server whose HEAD says nothing useful (a
 * one-byte ranged GET instead), a .torrent behind a link (listed, and added as a torrent), a magnet from a local
 * seeder, content already held (instant), targets refused with no connection made, and the signed-out limit, which
 * holds in a second process on the same database.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import parseTorrent from 'parse-torrent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { buildHaul } from '../src/app.js';
import { spawnAria2Seeder } from './bt-peers.js';
import { need } from './child-server.js';
import { startTestHaul, type TestHaul } from './helper.js';

const FILM = Buffer.alloc(300_000, 7);
const work = mkdtempSync(join(tmpdir(), 'haul-url-check-'));
/** Every request the origin saw: method and path. */
const seen: string[] = [];
let origin: Server;
let base: string;
let torrentBytes: Buffer;
let tracker: InstanceType<typeof Tracker>;
let seeder: ChildProcess | null = null;
let announce: string;

function serve(req: IncomingMessage, res: import('node:http').ServerResponse): void {
  const path = (req.url ?? '').split('?')[0]!;
  seen.push(`${req.method} ${path}`);
  const body = (bytes: Buffer, type: string, headers: Record<string, string> = {}) => {
    res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length), ...headers });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
  switch (path) {
    case '/film.mkv':
      return body(FILM, 'video/x-matroska', { etag: '"film-1"' });
    case '/go':
      res.writeHead(302, { location: '/film.mkv' });
      return void res.end();
    case '/liar': {
      // HEAD is refused; a ranged GET tells the size.
      if (req.method === 'HEAD') return void res.writeHead(405).end();
      if (req.headers.range === 'bytes=0-0') {
        res.writeHead(206, {
          'content-type': 'application/zip',
          'content-range': `bytes 0-0/${FILM.length}`,
          'content-length': '1',
          'content-disposition': 'attachment; filename="backup.zip"',
        });
        return void res.end(FILM.subarray(0, 1));
      }
      return body(FILM, 'application/zip');
    }
    case '/get/album':
      // No .torrent in the name: the type says what it is.
      return body(torrentBytes, 'application/x-bittorrent', { 'content-disposition': 'attachment; filename="album.torrent"' });
    case '/broken.torrent':
      return body(Buffer.from('not a torrent'), 'application/x-bittorrent');
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  need('mktorrent', 'mktorrent');
  need('aria2c', 'aria2');
  tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
  const pack = join(work, 'album');
  spawnSync('mkdir', ['-p', pack]);
  writeFileSync(join(pack, 'one.flac'), Buffer.alloc(70_000, 1));
  writeFileSync(join(pack, 'two.flac'), Buffer.alloc(90_000, 2));
  const torrentPath = join(work, 'album.torrent');
  const made = spawnSync('mktorrent', ['-a', announce, '-l', '16', '-o', torrentPath, pack]);
  if (made.status !== 0) throw new Error(`mktorrent failed: ${made.stderr}`);
  torrentBytes = readFileSync(torrentPath);
  seeder = await spawnAria2Seeder(work, torrentPath);
  origin = createServer(serve);
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
});

afterAll(async () => {
  seeder?.kill('SIGKILL');
  await new Promise<void>((r) => origin.close(() => r()));
  await new Promise<void>((r) => tracker.close(() => r()));
  rmSync(work, { recursive: true, force: true });
});

describe('URL checker', { timeout: 90_000 }, () => {
  let h: TestHaul;
  let t: TokenResponse;
  const check = (url: string, token = t.access_token) => h.api('POST', '/drive/v1/url:check', token, { url });

  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: true });
    t = await h.signUp('checker@example.com');
    h.offline.start();
  });
  afterAll(() => h.destroy());

  it("tells an http file's name, size and type from HEAD, after redirects, and fetches nothing", async () => {
    seen.length = 0;
    const r = await check(`${base}/go`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      kind: 'http',
      url: `${base}/film.mkv`,
      name: 'film.mkv',
      size: String(FILM.length),
      mime_type: 'video/x-matroska',
      instant: false,
    });
    expect(seen).toEqual(['HEAD /go', 'HEAD /film.mkv']);
  });

  it('asks with a one-byte ranged GET when HEAD is refused', async () => {
    seen.length = 0;
    const r = await check(`${base}/liar`);
    expect(r.body).toMatchObject({ kind: 'http', name: 'backup.zip', size: String(FILM.length), mime_type: 'application/zip' });
    expect(seen).toEqual(['HEAD /liar', 'GET /liar']);
  });

  it('lists a .torrent behind a link, and its file adds as a torrent with the files picked', async () => {
    const r = await check(`${base}/get/album`);
    expect(r.body).toMatchObject({ kind: 'torrent', name: 'album', size: String(160_000), instant: false });
    expect(r.body.torrent.files.map((f: { path: string }) => f.path).sort()).toEqual(['album/one.flac', 'album/two.flac']);
    expect(Buffer.from(r.body.torrent_file, 'base64').equals(torrentBytes)).toBe(true);
    const two = r.body.torrent.files.find((f: { path: string }) => f.path === 'album/two.flac').index;
    const root = await h.api('GET', '/drive/v1/files?parent_id=', t.access_token);
    expect(root.status).toBe(200);
    const added = await h.api('POST', '/drive/v1/files', t.access_token, {
      kind: 'drive#file',
      upload_type: 'UPLOAD_TYPE_URL',
      parent_id: '',
      torrent: r.body.torrent_file,
      params: { file_ids: String(two) },
    });
    expect(added.status).toBe(200);
    expect(added.body.task.name).toBe('album');
  });

  it("lists a magnet link's files from a local seeder", async () => {
    const parsed = await parseTorrent(torrentBytes);
    const r = await check(`magnet:?xt=urn:btih:${parsed.infoHash}&tr=${encodeURIComponent(announce)}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: 'magnet', name: 'album', size: '160000', instant: false });
    expect(r.body.torrent_file).toBeUndefined();
  });

  it('says instant for content this server already fetched', async () => {
    const added = await h.api('POST', '/drive/v1/files', t.access_token, {
      kind: 'drive#file',
      upload_type: 'UPLOAD_TYPE_URL',
      parent_id: '',
      url: { url: `${base}/film.mkv` },
    });
    expect(added.status).toBe(200);
    const end = Date.now() + 30_000;
    for (;;) {
      const task = await h.api('GET', `/drive/v1/tasks/${added.body.task.id}`, t.access_token);
      if (task.body.phase === 'PHASE_TYPE_COMPLETE') break;
      if (task.body.phase === 'PHASE_TYPE_ERROR' || Date.now() > end) throw new Error(JSON.stringify(task.body));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await check(`${base}/film.mkv`)).body).toMatchObject({ kind: 'http', instant: true, size: String(FILM.length) });
  });

  it('answers failures in words, with the reason code', async () => {
    const cases: [string, string][] = [
      [`${base}/missing.iso`, 'not_found'],
      [`${base}/broken.torrent`, 'bad_torrent'],
      ['ftp://example.com/file', 'bad_link'],
      ['just words', 'bad_link'],
      ['magnet:?dn=no-hash', 'bad_torrent'],
    ];
    for (const [url, reason] of cases) {
      const r = await check(url);
      expect([url, r.status, r.body.error, r.body.details?.[0]?.reason]).toEqual([url, 400, 'invalid_argument', reason]);
      expect(r.body.error_description).toBeTruthy();
    }
  });
});

describe('URL checker, private network not allowed', () => {
  let h: TestHaul;

  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: false });
  });
  afterAll(() => h.destroy());

  it('refuses loopback and private targets without connecting to them', async () => {
    seen.length = 0;
    const port = new URL(base).port;
    for (const url of [`${base}/film.mkv`, `http://localhost:${port}/film.mkv`, `http://[::1]:${port}/film.mkv`, `http://10.0.0.1/x`]) {
      const r = await h.api('POST', '/drive/v1/url:check', undefined, { url });
      expect([url, r.status, r.body.details?.[0]?.reason]).toEqual([url, 400, 'private_address']);
    }
    expect(seen).toEqual([]);
  });

  it('lets a signed-out network check 10 links an hour, counted across processes', async () => {
    const fresh = await startTestHaul({ allowPrivateNetwork: false });
    const twin = await buildHaul({ ...fresh.ctx.config }, { logger: false });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const app = i % 2 ? twin.app : fresh.app;
        statuses.push((await app.inject({ method: 'POST', url: '/drive/v1/url:check', payload: { url: 'ftp://x/y' } })).statusCode);
      }
      expect(statuses).toEqual(Array(10).fill(400));
      const over = await twin.app.inject({ method: 'POST', url: '/drive/v1/url:check', payload: { url: 'ftp://x/y' } });
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ error: 'too_many_requests' });
      // Signed in, the account's own allowance applies.
      const t = await fresh.signUp('limited@example.com');
      expect((await fresh.api('POST', '/drive/v1/url:check', t.access_token, { url: 'ftp://x/y' })).status).toBe(400);
    } finally {
      await twin.app.close();
      await fresh.destroy();
    }
  });
});
