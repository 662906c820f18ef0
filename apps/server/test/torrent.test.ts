/**
 * Cloud downloads over BitTorrent with real peers on loopback: a tracker (bittorrent-tracker), a seeder nobody here
 * wrote (aria2c seeding a torrent made by mktorrent) and WebTorrent as a seeder. Every case runs twice: with the
 * built-in engine, and with a qBittorrent daemon (qbittorrent-nox with a throwaway profile, started here).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bencode from 'bencode';
import { Server as Tracker } from 'bittorrent-tracker';
import parseTorrent from 'parse-torrent';
import WebTorrent, { type Instance } from 'webtorrent';
import { spawnAria2Seeder } from './bt-peers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { torrentDir } from '../src/offline/offline.service.js';
import { freeLoopbackPort, startQbittorrentDaemon, type QbittorrentDaemon } from '../src/offline/qbittorrent-daemon.js';
import { diskPathOf } from '../src/offline/torrent-engine.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { mkdir, startTestHaul, type TestHaul, until } from './helper.js';

function need(tool: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
    throw new Error(`${tool} is missing: install it with "apt-get install -y ${pkg}".`);
}

/** aria2c seeding `torrentPath` from `dir`, stopped after the tests. */
async function seedWithAria2(dir: string, torrentPath: string, extra: string[] = []): Promise<ChildProcess> {
  const seeder = await spawnAria2Seeder(dir, torrentPath, extra);
  children.push(seeder);
  return seeder;
}


const workRoot = mkdtempSync(join(tmpdir(), 'haul-bt-'));
let tracker: InstanceType<typeof Tracker>;
let announce: string;
const seeders: Instance[] = [];
const children: ChildProcess[] = [];

const newSeeder = () => {
  const c = new WebTorrent({ dht: false, lsd: false, utp: false, natUpnp: false, natPmp: false, tracker: { wrtc: false } });
  seeders.push(c);
  return c;
};
beforeAll(async () => {
  tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(seeders.map((s) => new Promise<void>((r) => s.destroy(() => r()))));
  await new Promise<void>((r) => tracker.close(() => r()));
  rmSync(workRoot, { recursive: true, force: true });
});

// The two engines' blocks run at the same time: each spends most of its time waiting on rate-limited peers. Within a
// block the cases run in order (each test's own `expect`, as concurrent tests need), since the last one lists what the
// others left in the root folder.
for (const engine of ['builtin', 'qbittorrent'] as const) {
  describe(`BitTorrent cloud downloads (${engine} engine)`, { timeout: 120_000, concurrent: true }, () => {
    const work = join(workRoot, engine);
    let h: TestHaul;
    let t: TokenResponse;
    let daemon: QbittorrentDaemon | null = null;

    const task = (tok: string, id: string) => h.api('GET', `/drive/v1/tasks/${id}`, tok).then((r) => r.body);
    const finished = (tok: string, id: string) =>
      until(
        () => task(tok, id),
        (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR',
        60_000,
      );
    const children_ = (tok: string, parent: string) =>
      h
        .api('GET', `/drive/v1/files?parent_id=${parent}&limit=100`, tok)
        .then((r) =>
          (r.body.files as { id: string; name: string; kind: string; hash: string; size: string }[]).sort((a, b) =>
            a.name.localeCompare(b.name),
          ),
        );

    /**
     * A torrent of `path` (inside `root`) made by mktorrent with 2^`pieceLog`-byte pieces, seeded by aria2c at `rate`
     * a second; `unthrottle` lifts the limit once the test has seen what it needed mid-download, so the rest comes at
     * full speed instead of the seconds the limit would still take.
     */
    async function seeded(root: string, path: string, name: string, pieceLog: number, rate: string): Promise<{ torrentPath: string; unthrottle: () => Promise<void> }> {
      need('aria2c', 'aria2');
      need('mktorrent', 'mktorrent');
      const torrentPath = join(work, `${name}.torrent`);
      const made = spawnSync('mktorrent', ['-a', announce, '-l', String(pieceLog), '-o', torrentPath, path]);
      expect(made.status, made.stderr.toString()).toBe(0);
      const rpcPort = await freeLoopbackPort();
      await seedWithAria2(root, torrentPath, [`--max-overall-upload-limit=${rate}`, '--enable-rpc=true', `--rpc-listen-port=${rpcPort}`]);
      const unthrottle = async () => {
        const res = await fetch(`http://127.0.0.1:${rpcPort}/jsonrpc`, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'aria2.changeGlobalOption', params: [{ 'max-overall-upload-limit': '0' }] }),
        });
        expect(await res.json()).toMatchObject({ result: 'OK' });
      };
      return { torrentPath, unthrottle };
    }
    /** A cloud download of a .torrent file into `parentId`. */
    const addTorrent = (torrentPath: string, parentId = '') =>
      h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', torrent: readFileSync(torrentPath).toString('base64'), parent_id: parentId });

    beforeAll(async () => {
      mkdirSync(work, { recursive: true });
      if (engine === 'qbittorrent') daemon = await startQbittorrentDaemon();
      h = await startTestHaul({ allowPrivateNetwork: true, ...(daemon ? { torrentEngine: engine, torrentDaemonUrl: daemon.url } : {}) });
      h.offline.start();
      t = await h.signUp();
    });
    afterAll(async () => {
      await h?.destroy().catch(() => undefined);
      await daemon?.stop();
    });

    it.sequential('fetches the chosen files of a .torrent from an aria2c seeder into a folder tree', async ({ expect }) => {
      need('aria2c', 'aria2');
      need('mktorrent', 'mktorrent');
      const root = join(work, 'aria');
      const pack = join(root, 'pack');
      mkdirSync(join(pack, 'sub'), { recursive: true });
      const a = randomBytes(3 * 1024 * 1024 + 7);
      const c = randomBytes(1024 * 1024);
      writeFileSync(join(pack, 'a.bin'), a);
      writeFileSync(join(pack, 'sub', 'b.txt'), 'left out\n');
      writeFileSync(join(pack, 'sub', 'c.bin'), c);
      const torrentPath = join(work, 'pack.torrent');
      const made = spawnSync('mktorrent', ['-a', announce, '-l', '16', '-o', torrentPath, pack]);
      expect(made.status, made.stderr.toString()).toBe(0);
      await seedWithAria2(root, torrentPath);

      const torrent = readFileSync(torrentPath);
      const parsed = await parseTorrent(torrent);
      const index = (p: string) => parsed.files!.findIndex((f) => f.path === p);
      // The file list first, for the person to choose from.
      const seen = await h.api('POST', '/drive/v1/torrent:inspect', t.access_token, { torrent: torrent.toString('base64') });
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
      expect(seen.body).toMatchObject({ name: 'pack', info_hash: parsed.infoHash, size: String(a.length + c.length + 9) });
      expect(seen.body.files.map((f: { path: string; size: string }) => [f.path, f.size]).sort()).toEqual([
        ['pack/a.bin', String(a.length)],
        ['pack/sub/b.txt', '9'],
        ['pack/sub/c.bin', String(c.length)],
      ]);
      const folder = await mkdir(h, t.access_token, 'Torrents');
      const res = await h.api('POST', '/drive/v1/files', t.access_token, {
        kind: 'drive#file',
        upload_type: 'UPLOAD_TYPE_URL',
        torrent: torrent.toString('base64'),
        parent_id: folder,
        params: { file_ids: `${index('pack/sub/c.bin')},${index('pack/a.bin')}` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.task).toMatchObject({ name: 'pack', phase: 'PHASE_TYPE_PENDING' });
      const done = await finished(t.access_token, res.body.task.id);
      expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 });

      // One folder for the torrent, the chosen files only, each with the seeder's bytes.
      const top = await children_(t.access_token, folder);
      expect(top.map((f) => [f.name, f.kind])).toEqual([['pack', 'drive#folder']]);
      expect(done.file_id).toBe(top[0]!.id);
      const inPack = await children_(t.access_token, top[0]!.id);
      expect(inPack.map((f) => f.name)).toEqual(['a.bin', 'sub']);
      expect(inPack[0]!.hash).toBe(await contentHashOf(a));
      const inSub = await children_(t.access_token, inPack[1]!.id);
      expect(inSub.map((f) => [f.name, f.hash])).toEqual([['c.bin', await contentHashOf(c)]]);
      // The task's folder goes right after the task completes (the files are in the store by then).
      await expect.poll(() => existsSync(torrentDir(h.dataDir, res.body.task.id)), { timeout: 10_000 }).toBe(false);
    });

    it.sequential('pauses a torrent keeping its pieces on disk, and continues from them', async ({ expect }) => {
      const root = join(work, 'paused');
      mkdirSync(root, { recursive: true });
      const content = randomBytes(16 * 1024 * 1024);
      writeFileSync(join(root, 'show.mkv'), content);
      // 2 MiB a second: the whole file would take ~8 s, so the pause surely comes half-way.
      const seed = await seeded(root, join(root, 'show.mkv'), 'show', 18, '2M');
      const res = await addTorrent(seed.torrentPath);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const id = res.body.task.id;
      const running = await until(
        () => task(t.access_token, id),
        (x) => x.phase !== 'PHASE_TYPE_PENDING' && (x.phase !== 'PHASE_TYPE_RUNNING' || x.progress >= 15),
        60_000,
      );
      expect(running.phase, running.message).toBe('PHASE_TYPE_RUNNING');
      expect((await h.api('PATCH', `/drive/v1/tasks/${id}`, t.access_token, { phase: 'PHASE_TYPE_PAUSED' })).status).toBe(200);

      // Stopped within a progress report or two, its pieces still on disk; the daemon no longer holds the torrent.
      const onDisk = () =>
        readdirSync(torrentDir(h.dataDir, id), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .reduce((n, e) => n + statSync(join(e.parentPath ?? e.path, e.name)).blocks * 512, 0);
      if (daemon) {
        const held = () => fetch(`${daemon!.url}api/v2/torrents/info`).then((r) => r.json() as Promise<unknown[]>);
        await until(held, (list) => list.length === 0, 10_000);
      } else await new Promise((r) => setTimeout(r, 2500));
      const kept = onDisk();
      expect(kept).toBeGreaterThan(content.length * 0.1);
      const paused = await task(t.access_token, id);
      await new Promise((r) => setTimeout(r, 1500));
      // Nothing more arrives (still fetching, 1.5 s would add ~3 MiB); the daemon's memory-mapped writes may still
      // reach the disk as a few pages of what it had received.
      expect(onDisk() - kept).toBeLessThan(1024 * 1024);
      expect(await task(t.access_token, id)).toMatchObject({ phase: 'PHASE_TYPE_PAUSED', progress: paused.progress, params: { received: paused.params.received } });

      await seed.unthrottle();
      expect((await h.api('PATCH', `/drive/v1/tasks/${id}`, t.access_token, { phase: 'PHASE_TYPE_PENDING' })).status).toBe(200);
      const done = await finished(t.access_token, id);
      expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });
      const file = (await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body;
      expect(file).toMatchObject({ name: 'show.mkv', size: String(content.length), hash: await contentHashOf(content) });
      await expect.poll(() => existsSync(torrentDir(h.dataDir, id)), { timeout: 10_000 }).toBe(false);
    });

    it.sequential('puts each file of a multi-file torrent in the drive as soon as it is done, and each once', async ({ expect }) => {
      const root = join(work, 'early');
      const season = join(root, 'season');
      mkdirSync(season, { recursive: true });
      const first = randomBytes(256 * 1024);
      const last = randomBytes(8 * 1024 * 1024);
      writeFileSync(join(season, 'e01.bin'), first);
      writeFileSync(join(season, 'e02.bin'), last);
      // 1 MiB a second: the second file would take ~8 s, long after the first is whole (both engines fetch in order).
      const seed = await seeded(root, season, 'season', 16, '1M');
      const folder = await mkdir(h, t.access_token, 'Early');
      const month = async () => Number((await h.api('GET', '/drive/v1/about?with_quotas=cloud_download_size_month', t.access_token)).body.quotas.cloud_download_size_month.usage);
      const monthBefore = await month();
      const res = await addTorrent(seed.torrentPath, folder);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const id = res.body.task.id;

      // The first episode is in the drive, under the torrent's folder, while the task still runs.
      const seasonFolder = await until(
        () => children_(t.access_token, folder),
        (list) => list.length === 1,
        60_000,
      );
      expect(seasonFolder.map((f) => [f.name, f.kind])).toEqual([['season', 'drive#folder']]);
      const early = await until(
        () => children_(t.access_token, seasonFolder[0]!.id),
        (list) => list.length > 0,
        60_000,
      );
      const running = await task(t.access_token, id);
      expect(running.phase, running.message).toBe('PHASE_TYPE_RUNNING');
      expect(early.map((f) => [f.name, f.hash])).toEqual([['e01.bin', await contentHashOf(first)]]);
      expect(running.file_id).toBe(seasonFolder[0]!.id);
      expect(running.params).toMatchObject({ file_count: '2' });
      expect(running.params.landed.split(',')).toHaveLength(1);
      await seed.unthrottle();

      // At the end the rest joins it: one folder, each file once, the task pointing at the folder.
      const done = await finished(t.access_token, id);
      expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', file_id: seasonFolder[0]!.id, name: 'season' });
      expect((await children_(t.access_token, folder)).map((f) => f.name)).toEqual(['season']);
      const all = await children_(t.access_token, seasonFolder[0]!.id);
      expect(all.map((f) => [f.name, f.hash])).toEqual([
        ['e01.bin', await contentHashOf(first)],
        ['e02.bin', await contentHashOf(last)],
      ]);
      expect(done.params.landed.split(',')).toHaveLength(2);
      // The month counted each byte once.
      expect((await month()) - monthBefore).toBe(first.length + last.length);
      await expect.poll(() => existsSync(torrentDir(h.dataDir, id)), { timeout: 10_000 }).toBe(false);
    });

    it.sequential('plays a video of a torrent still downloading from the pieces already there, a seek asking for its own', async ({ expect }) => {
      const root = join(work, 'play');
      mkdirSync(root, { recursive: true });
      const film = randomBytes(24 * 1024 * 1024);
      writeFileSync(join(root, 'film.mp4'), film);
      // 2 MiB a second: ~12 s for the whole film, until the seek below has been answered.
      const seed = await seeded(root, join(root, 'film.mp4'), 'film', 16, '2M');
      const res = await addTorrent(seed.torrentPath);
      const id = res.body.task.id;
      const playable = await until(
        () => h.api('GET', `/drive/v1/tasks/${id}/playable`, t.access_token),
        (r) => r.status !== 200 || Number(r.body.files[0]?.received ?? 0) >= 65536,
        60_000,
      );
      expect(playable.status, JSON.stringify(playable.body)).toBe(200);
      expect(playable.body.files).toHaveLength(1);
      expect(playable.body.files[0]).toMatchObject({ index: 0, name: 'film.mp4', kind: 'video', mime_type: 'video/mp4', size: String(film.length) });
      const link = new URL(playable.body.files[0].url as string);
      const url = link.pathname + link.search;
      const get = (path: string, range?: string) => h.app.inject({ method: 'GET', url: path, headers: range ? { range } : {} });

      // The start plays while the task runs.
      const head = await get(url, 'bytes=0-65535');
      expect(head.statusCode).toBe(206);
      expect(head.headers['content-range']).toBe(`bytes 0-65535/${film.length}`);
      expect(head.rawPayload.equals(film.subarray(0, 65536))).toBe(true);
      expect((await task(t.access_token, id)).phase).toBe('PHASE_TYPE_RUNNING');

      // A seek to the end (where a video's index often is) waits for its piece, asked for first (or fetched first by
      // the daemon), and gets it before the film is whole.
      const from = film.length - 65536;
      const tail = await get(url, `bytes=${from}-`);
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(film.subarray(from))).toBe(true);
      expect((await task(t.access_token, id)).phase).toBe('PHASE_TYPE_RUNNING');
      await seed.unthrottle();

      // A link changed by a byte, or another account's look at the task, gets nothing.
      expect((await get(url.replace(/s=./, (m) => (m === 's=A' ? 's=B' : 's=A')))).statusCode).toBe(404);
      const other = await h.signUp();
      expect((await h.api('GET', `/drive/v1/tasks/${id}/playable`, other.access_token)).status).toBe(404);
      const done = await finished(t.access_token, id);
      expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
      // Finished while it played: the same link goes on, from the store.
      const again = await get(url, 'bytes=100-199');
      expect(again.statusCode).toBe(206);
      expect(again.rawPayload.equals(film.subarray(100, 200))).toBe(true);
      expect((await h.api('GET', `/drive/v1/tasks/${id}/playable`, t.access_token)).status).toBe(409);
    });

    it.sequential('gives two accounts fetching the same torrent at once each the file', async ({ expect }) => {
      need('aria2c', 'aria2');
      need('mktorrent', 'mktorrent');
      const root = join(work, 'twice');
      mkdirSync(root, { recursive: true });
      const content = randomBytes(4 * 1024 * 1024 + 3);
      writeFileSync(join(root, 'album.zip'), content);
      const torrentPath = join(work, 'album.torrent');
      const made = spawnSync('mktorrent', ['-a', announce, '-l', '16', '-o', torrentPath, join(root, 'album.zip')]);
      expect(made.status, made.stderr.toString()).toBe(0);
      await seedWithAria2(root, torrentPath);
      const torrent = readFileSync(torrentPath).toString('base64');
      const users = [t, await h.signUp()];
      const created = await Promise.all(
        users.map((u) => h.api('POST', '/drive/v1/files', u.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', torrent, parent_id: '' })),
      );
      const hash = await contentHashOf(content);
      for (const [i, u] of users.entries()) {
        const done = await finished(u.access_token, created[i]!.body.task.id);
        expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });
        const file = (await h.api('GET', `/drive/v1/files/${done.file_id}`, u.access_token)).body;
        expect(file).toMatchObject({ name: 'album.zip', parent_id: '', size: String(content.length), hash });
      }
    });

    it.sequential('fetches a magnet link from a WebTorrent seeder, and again for anyone at once once the seeder is gone', async ({ expect }) => {
      const song = randomBytes(2 * 1024 * 1024 + 11);
      const dir = join(work, 'magnet');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'song.flac'), song);
      const seeder = newSeeder();
      const magnet = await new Promise<string>((r) => seeder.seed(join(dir, 'song.flac'), { announce: [announce] }, (tt) => r(tt.magnetURI)));
      const listed = await h.api('POST', '/drive/v1/torrent:inspect', t.access_token, { url: magnet });
      expect(listed.body.files).toEqual([{ index: 0, path: 'song.flac', size: String(song.length) }]);
      const res = await h.api('POST', '/drive/v1/files', t.access_token, {
        kind: 'drive#file',
        upload_type: 'UPLOAD_TYPE_URL',
        url: { url: magnet },
        parent_id: '',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.task.name).toBe('song.flac');
      const done = await finished(t.access_token, res.body.task.id);
      expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });
      const file = (await h.api('GET', `/drive/v1/files/${done.file_id}`, t.access_token)).body;
      expect(file).toMatchObject({ name: 'song.flac', parent_id: '', size: String(song.length), hash: await contentHashOf(song) });

      // No peer left: the file list and the bytes come from what this server already holds.
      await new Promise<void>((r) => seeder.destroy(() => r()));
      seeders.splice(seeders.indexOf(seeder), 1);
      const other = await h.signUp();
      const again = await h.api('POST', '/drive/v1/files', other.access_token, {
        kind: 'drive#file',
        upload_type: 'UPLOAD_TYPE_URL',
        url: { url: magnet },
        parent_id: '',
      });
      const instant = await until(
        () => task(other.access_token, again.body.task.id),
        (x) => x.phase !== 'PHASE_TYPE_PENDING' && x.phase !== 'PHASE_TYPE_RUNNING',
        15_000,
      );
      expect(instant.phase).toBe('PHASE_TYPE_COMPLETE');
      expect((await h.api('GET', `/drive/v1/files/${instant.file_id}`, other.access_token)).body.hash).toBe(await contentHashOf(song));
    });

    it.sequential('keeps a torrent whose paths try to climb out inside its folder, with safe names', async ({ expect }) => {
      // A hand-made torrent: name "..", one path of "../../escape.txt", one name with a control character and a backslash.
      const one = Buffer.from('first file\n');
      const two = Buffer.from('second file\n');
      const pieceLength = 16384;
      const data = Buffer.concat([one, two]);
      const { createHash } = await import('node:crypto');
      const pieces = createHash('sha1').update(data).digest();
      const info = {
        name: Buffer.from('..'),
        'piece length': pieceLength,
        pieces,
        files: [
          { length: one.length, path: [Buffer.from('..'), Buffer.from('..'), Buffer.from('escape.txt')] },
          { length: two.length, path: [Buffer.from('bad\u0007na\\me.txt')] },
        ],
      };
      const torrent = Buffer.from(bencode.encode({ announce: Buffer.from(announce), info }));
      const parsed = await parseTorrent(torrent);
      // The seeder holds the bytes where its own parser puts them.
      const seedDir = join(work, 'evil-seed');
      for (const [i, f] of parsed.files!.entries()) {
        const at = diskPathOf(seedDir, f.path);
        mkdirSync(join(at, '..'), { recursive: true });
        writeFileSync(at, i === 0 ? one : two);
      }
      const seeder = newSeeder();
      await new Promise<void>((r) =>
        seeder.add(torrent, { path: seedDir }, (tt) => (tt.files.every((f) => f.done) ? r() : tt.once('done', () => r()))),
      );

      const marker = join(h.dataDir, 'escape.txt');
      const folder = await mkdir(h, t.access_token, 'Evil');
      const res = await h.api('POST', '/drive/v1/files', t.access_token, {
        kind: 'drive#file',
        upload_type: 'UPLOAD_TYPE_URL',
        torrent: torrent.toString('base64'),
        parent_id: folder,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const done = await finished(t.access_token, res.body.task.id);
      expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });

      // Everything landed under the chosen folder, named without "..", control characters or backslashes.
      const names: string[] = [];
      const walk = async (parent: string, prefix: string) => {
        for (const f of await children_(t.access_token, parent)) {
          names.push(prefix + f.name);
          if (f.kind === 'drive#folder') await walk(f.id, `${prefix}${f.name}/`);
        }
      };
      await walk(folder, '');
      expect(names.length).toBeGreaterThanOrEqual(2);
      for (const n of names) {
        expect(n.split('/')).not.toContain('..');
        expect(n).not.toMatch(/[\u0000-\u001f\\]/);
      }
      expect(names.some((n) => n.endsWith('escape.txt'))).toBe(true);
      expect(names.some((n) => n.endsWith('badna_me.txt'))).toBe(true);
      // Nothing was written beside the offline folder, or at the root, outside any task's folder.
      expect(existsSync(marker)).toBe(false);
      expect(readdirSync(join(h.dataDir, 'offline')).filter((n) => !n.endsWith('.bt') && !n.endsWith('.part'))).toEqual([]);
      expect(
        (await h.api('GET', '/drive/v1/files?parent_id=&limit=100', t.access_token)).body.files.map((f: { name: string }) => f.name).sort(),
      ).toEqual(['Early', 'Evil', 'Torrents', 'album.zip', 'film.mp4', 'show.mkv', 'song.flac'].sort());
    });

    it.sequential('refuses a magnet link without an info hash, a file that is no torrent, and file_ids for links', async ({ expect }) => {
      const bad = [
        { url: { url: 'magnet:?dn=nothing' } },
        { torrent: Buffer.from('not a torrent').toString('base64') },
        { url: { url: 'https://example.com/a.iso' }, params: { file_ids: '1,2' } },
        { url: { url: 'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567' }, params: { file_ids: '1,x' } },
      ];
      for (const body of [{}, { url: 'https://example.com/x' }, { url: 'magnet:?dn=x' }, { torrent: Buffer.from('nope').toString('base64') }]) {
        const r = await h.api('POST', '/drive/v1/torrent:inspect', t.access_token, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error).toBe('invalid_argument');
      }
      for (const body of bad) {
        const r = await h.api('POST', '/drive/v1/files', t.access_token, {
          kind: 'drive#file',
          upload_type: 'UPLOAD_TYPE_URL',
          parent_id: '',
          ...body,
        });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error).toBe('invalid_argument');
      }
    });
  });
}
