/**
 * kill -9 in the middle of a cloud download: the real server runs as a child process (its bundle, as `npm start` runs
 * it) on a data directory of its own, is killed while a torrent (from a rate-limited aria2c seeder) or an HTTP link
 * (from a rate-limited origin with Range support) is half-way, and is started again on the same data directory. The
 * file must complete with the source's SHA-256, and no partial file may ever show in the folder listing.
 * The torrent case runs with the built-in engine and with a qBittorrent daemon, which goes on while Haul is down.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import { spawnAria2Seeder } from './bt-peers.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort, startQbittorrentDaemon, type QbittorrentDaemon } from '../src/offline/qbittorrent-daemon.js';
import { openDatabase } from '../src/db/database.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { crashTestEnv, database, HaulProcess, need, sha256Of, slowOrigin, until, watchListing } from './child-server.js';

const MiB = 1024 * 1024;
const SIZE = 32 * MiB;
/**
 * Bytes a second the seeder and the origin send: the whole file takes ~8 s, so a kill at 15–70 % is surely mid-way.
 * Once the next life has taken the task up, the limit is lifted: the rest proves nothing more by coming slowly.
 */
const RATE = 4 * MiB;

const work = mkdtempSync(join(tmpdir(), 'haul-crash-'));
const cleanups: (() => Promise<void> | void)[] = [];
let tracker: InstanceType<typeof Tracker>;
let announce: string;

beforeAll(async () => {
  tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await new Promise<void>((r) => tracker.close(() => r()));
  rmSync(work, { recursive: true, force: true });
});

/** A server on a fresh data directory (and database), stopped and removed after the test. */
async function newHaul(env: Record<string, string>): Promise<HaulProcess> {
  const dataDir = mkdtempSync(join(work, 'data-'));
  const db = await database();
  const haul = new HaulProcess(await freeLoopbackPort(), crashTestEnv(dataDir, db, env));
  cleanups.push(async () => {
    if (haul.child) await haul.crash();
    await db.drop();
  });
  return haul;
}

/** Waits until the task's row is written by a life of the server started after `since` (it took the task up). */
const takenUpAfter = (haul: HaulProcess, token: string, taskId: string, since: number) =>
  until(
    () => haul.call('GET', `/drive/v1/tasks/${taskId}`, token),
    (x) => x.phase !== 'PHASE_TYPE_RUNNING' || Date.parse(x.updated_time) > since,
  );

/**
 * Waits until the task is between 15 % and 70 %, kills the server, starts it again, lifts the source's limit once the
 * new life has taken the task up, and waits for the end.
 */
async function crashMidway(haul: HaulProcess, token: string, taskId: string, unthrottle: () => Promise<void> | void) {
  const before = await until(
    () => haul.call('GET', `/drive/v1/tasks/${taskId}`, token),
    (x) => x.phase === 'PHASE_TYPE_ERROR' || x.progress >= 15,
  );
  expect(before, before.message).toMatchObject({ phase: 'PHASE_TYPE_RUNNING' });
  await haul.crash();
  const down = Date.now();
  expect(before.progress).toBeLessThan(70);
  await haul.start();
  await takenUpAfter(haul, token, taskId, down);
  await unthrottle();
  const done = await until(
    () => haul.call('GET', `/drive/v1/tasks/${taskId}`, token),
    (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR',
  );
  expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE', progress: 100 });
  return done;
}

describe('kill -9 during a cloud download', { timeout: 240_000 }, () => {
  for (const engine of ['builtin', 'qbittorrent'] as const) {
    it(`finishes a torrent after the server is killed half-way (${engine} engine)`, async () => {
      need('aria2c', 'aria2');
      need('mktorrent', 'mktorrent');
      let daemon: QbittorrentDaemon | null = null;
      if (engine === 'qbittorrent') {
        daemon = await startQbittorrentDaemon();
        cleanups.push(() => daemon!.stop());
      }
      const content = randomBytes(SIZE);
      const root = join(work, `seed-${engine}`);
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, 'movie.mkv'), content);
      const torrentPath = join(root, 'movie.torrent');
      const made = spawnSync('mktorrent', ['-a', announce, '-l', '18', '-o', torrentPath, join(root, 'movie.mkv')]);
      expect(made.status, made.stderr.toString()).toBe(0);
      const rpcPort = await freeLoopbackPort();
      const seeder = await spawnAria2Seeder(root, torrentPath, [`--max-overall-upload-limit=${RATE}`, '--enable-rpc=true', `--rpc-listen-port=${rpcPort}`]);
      cleanups.push(() => void seeder.kill('SIGKILL'));

      const haul = await newHaul(daemon ? { HAUL_TORRENT_ENGINE: engine, HAUL_TORRENT_DAEMON_URL: daemon.url } : {});
      await haul.start();
      const t = await haul.call('POST', '/v1/auth/signup', undefined, { email: `crash-${engine}@example.com`, password: 'correct horse' });
      const expected = { name: 'movie.mkv', size: SIZE, hash: await contentHashOf(content) };
      const stopWatching = watchListing(haul, () => t.access_token, expected);
      const created = await haul.call('POST', '/drive/v1/files', t.access_token, {
        kind: 'drive#file',
        upload_type: 'UPLOAD_TYPE_URL',
        torrent: readFileSync(torrentPath).toString('base64'),
        parent_id: '',
      });
      const done = await crashMidway(haul, t.access_token, created.task.id, async () => {
        const res = await fetch(`http://127.0.0.1:${rpcPort}/jsonrpc`, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'aria2.changeGlobalOption', params: [{ 'max-overall-upload-limit': '0' }] }),
        });
        expect(await res.json()).toMatchObject({ result: 'OK' });
      });

      const file = await haul.call('GET', `/drive/v1/files/${done.file_id}`, t.access_token);
      expect(file).toMatchObject({ name: 'movie.mkv', size: String(SIZE), hash: expected.hash });
      expect(await sha256Of(file.web_content_link)).toBe(createHash('sha256').update(content).digest('hex'));
      const watched = await stopWatching();
      expect(watched.looks).toBeGreaterThan(10);
      expect(watched.partial).toEqual([]);
    });
  }

  it('finishes an HTTP download after the server is killed half-way, from the bytes it had', async () => {
    const content = randomBytes(SIZE);
    const { server, ranges, unthrottle } = slowOrigin(content, RATE);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    server.on('connection', (s) => cleanups.push(() => void s.destroy()));
    const haul = await newHaul({});
    await haul.start();
    const t = await haul.call('POST', '/v1/auth/signup', undefined, { email: 'crash-http@example.com', password: 'correct horse' });
    const expected = { name: 'disk.img', size: SIZE, hash: await contentHashOf(content) };
    const stopWatching = watchListing(haul, () => t.access_token, expected);
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/disk.img`;
    const created = await haul.call('POST', '/drive/v1/files', t.access_token, {
      kind: 'drive#file',
      upload_type: 'UPLOAD_TYPE_URL',
      url: { url },
      parent_id: '',
    });
    const done = await crashMidway(haul, t.access_token, created.task.id, unthrottle);

    // The second life asked only for what the first had not written.
    const resumed = ranges.slice(1).map((r) => Number(/^bytes=(\d+)-$/.exec(r)?.[1] ?? 0));
    expect(ranges[0]).toBe('');
    expect(Math.max(...resumed)).toBeGreaterThan(SIZE * 0.1);
    const file = await haul.call('GET', `/drive/v1/files/${done.file_id}`, t.access_token);
    expect(file).toMatchObject({ name: 'disk.img', size: String(SIZE), hash: expected.hash });
    expect(await sha256Of(file.web_content_link)).toBe(createHash('sha256').update(content).digest('hex'));
    const watched = await stopWatching();
    expect(watched.looks).toBeGreaterThan(10);
    expect(watched.partial).toEqual([]);
  });
});

describe('a graceful stop (SIGTERM)', { timeout: 180_000 }, () => {
  it('parks a running download and exits in time; the next start takes it up at once, from the bytes it had', async () => {
    const content = randomBytes(SIZE);
    const { server, ranges, unthrottle } = slowOrigin(content, RATE);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    server.on('connection', (s) => cleanups.push(() => void s.destroy()));
    // A lease of ten minutes: only parking can let the next start take the task up at once.
    const haul = await newHaul({ HAUL_TASK_LEASE_SECONDS: '600', HAUL_STOP_TIMEOUT: '10' });
    await haul.start();
    const t = await haul.call('POST', '/v1/auth/signup', undefined, { email: 'graceful@example.com', password: 'correct horse' });
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/parked.img`;
    const created = await haul.call('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
    await until(() => haul.call('GET', `/drive/v1/tasks/${created.task.id}`, t.access_token), (x) => x.progress >= 15);

    const stopping = Date.now();
    expect(await haul.stop()).toBe(0);
    const stopped = Date.now();
    expect(Date.now() - stopping).toBeLessThan(10_000);
    const { db } = await openDatabase({ databaseUrl: haul.env.DATABASE_URL || null, dataDir: haul.env.HAUL_DATA_DIR! });
    const parked = await db.selectFrom('tasks').select('phase').where('id', '=', created.task.id).executeTakeFirstOrThrow();
    await db.destroy();
    expect(parked.phase).toBe('PHASE_TYPE_PENDING');

    await haul.start();
    await takenUpAfter(haul, t.access_token, created.task.id, stopped);
    unthrottle();
    const done = await until(
      () => haul.call('GET', `/drive/v1/tasks/${created.task.id}`, t.access_token),
      (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR',
      60_000,
    );
    expect(done, done.message).toMatchObject({ phase: 'PHASE_TYPE_COMPLETE' });
    expect(Math.max(...ranges.slice(1).map((r) => Number(/^bytes=(\d+)-$/.exec(r)?.[1] ?? 0)))).toBeGreaterThan(SIZE * 0.1);
    const file = await haul.call('GET', `/drive/v1/files/${done.file_id}`, t.access_token);
    expect(await sha256Of(file.web_content_link)).toBe(createHash('sha256').update(content).digest('hex'));
  });
});
