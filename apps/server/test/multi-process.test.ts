/**
 * A site of several processes sharing only one PostgreSQL and one S3 bucket (each has its own data folder, as on
 * separate machines): two API processes (`serve`) and two workers (`worker`), real servers started through main.ts.
 * Uploads split across both API processes (and one taken over by the other mid-chunk), cloud downloads and
 * transcodes each done exactly once, a worker killed mid-download taken over by the other, a sign-in limit counted
 * across both API processes, registration closed in one and refused by the other, and the wake-up signal between processes. PostgreSQL only: the SQLite pass of
 * scripts/test.mjs leaves this file out (one SQLite file is one machine's, usually one process's).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { contentHashOf } from '../src/storage/content-hash.js';
import { createJobSignals } from '../src/tasks/job-signals.js';
import { database, HaulProcess, sha256Of, slowOrigin, until } from './child-server.js';
import { s3ConfigFor, testBucket, testS3 } from './s3-server.js';
import { createProven } from './upload-proof.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const DOWNLOADS = 20;
const VIDEOS = 5;
const COMPLETE = 'PHASE_TYPE_COMPLETE';

const pgUrl = process.env.HAUL_TEST_DATABASE_URL;
const work = mkdtempSync(join(tmpdir(), 'haul-multi-'));
const cleanups: (() => Promise<void> | void)[] = [];
let api: HaulProcess[] = [];
let workers: HaulProcess[] = [];
let metadata: Db;
let token = '';
let originBase = '';
let dbUrl = '';
/** GET requests the origin served, per path. */
const served = new Map<string, number>();
const bodies = new Map<string, Buffer>();

/** Serves `bodies` and counts each GET. */
function origin(): Server {
  return createServer((req, res) => {
    const path = req.url ?? '';
    const body = bodies.get(path);
    if (req.method === 'GET') served.set(path, (served.get(path) ?? 0) + 1);
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length, 'content-type': path.endsWith('.mp4') ? 'video/mp4' : 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
}

const listen = (s: Server) => new Promise<string>((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as { port: number }).port}`)));
const close = (s: Server) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())));

/** Creates a cloud download of `url` through API process `via`; returns its task id. */
async function download(via: HaulProcess, url: string): Promise<string> {
  const created = await via.call('POST', '/drive/v1/files', token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
  return created.task.id as string;
}

/** Waits until every task is complete (read through the other API process than the one that created it). */
async function allComplete(ids: string[]): Promise<Record<string, { file_id: string; name: string }>> {
  const out: Record<string, { file_id: string; name: string }> = {};
  for (const [i, id] of ids.entries()) {
    const t = await until(() => api[(i + 1) % 2]!.call('GET', `/drive/v1/tasks/${id}`, token), (x) => x.phase === COMPLETE || x.phase === 'PHASE_TYPE_ERROR', 60_000);
    expect(t, t.message).toMatchObject({ phase: COMPLETE });
    out[id] = t;
  }
  return out;
}

/** A resumable upload of `size` random bytes created through API process 0: its bytes, hash, answer and tus path. */
async function resumable(name: string, size: number) {
  const content = randomBytes(size);
  const hash = await contentHashOf(content);
  const body = { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_RESUMABLE', name, size: String(size), hash, parent_id: '' };
  const created = (await createProven(async (b) => ({ body: await api[0]!.call('POST', '/drive/v1/files', token, b) }), body, content)).body;
  const path = new URL(created.resumable.params.upload_url as string).pathname;
  return { content, hash, created, path, headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' } };
}

/** How many times each worker logged `msg` for `key` = value. */
function starts(msg: string, key: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  workers.forEach((w, i) => {
    for (const line of w.logged(msg)) {
      const k = String(line[key]);
      const per = out.get(k) ?? workers.map(() => 0);
      per[i]!++;
      out.set(k, per);
    }
  });
  return out;
}

beforeAll(async () => {
  if (!pgUrl) throw new Error('multi-process.test.ts runs on PostgreSQL only: set HAUL_TEST_DATABASE_URL (scripts/test.mjs runs it in its PostgreSQL pass).');
  const db = await database();
  cleanups.push(() => db.drop());
  dbUrl = db.url!;
  const dataDir = mkdtempSync(join(work, 'data-'));
  const o = origin();
  originBase = await listen(o);
  cleanups.push(() => close(o));
  // Every byte in one bucket all four processes share, as a site past one machine keeps them.
  const s3 = await s3ConfigFor(await testS3(), testBucket());
  const env = {
    HAUL_BLOB_STORE: 's3',
    HAUL_S3_ENDPOINT: s3.endpoint!,
    HAUL_S3_BUCKET: s3.bucket,
    HAUL_S3_REGION: s3.region,
    HAUL_S3_ACCESS_KEY_ID: s3.accessKeyId!,
    HAUL_S3_SECRET_ACCESS_KEY: s3.secretAccessKey!,
    HAUL_DATA_DIR: dataDir,
    DATABASE_URL: db.url!,
    HAUL_ALLOW_PRIVATE_NETWORK: '1',
    // A killed worker's download is taken over within seconds, not a minute.
    HAUL_TASK_LEASE_SECONDS: '3',
    HAUL_TRANSCODE: 'on-play',
    HAUL_WEB_DIR: join(dataDir, 'no-web'),
    HAUL_LOG_LEVEL: 'info',
  };
  const ports = await Promise.all([0, 1, 2, 3].map(() => freeLoopbackPort()));
  // Each process has a data folder of its own, as on separate machines: they share only PostgreSQL and the bucket.
  const own = (i: number) => ({ ...env, HAUL_DATA_DIR: mkdtempSync(join(work, `data-${i}-`)) });
  api = [0, 1].map((i) => new HaulProcess(ports[i]!, own(i), { role: 'serve', keepLog: true }));
  workers = [2, 3].map((i) => new HaulProcess(ports[i]!, own(i), { role: 'worker', keepLog: true }));
  cleanups.push(async () => {
    for (const p of [...api, ...workers]) if (p.child) await p.crash();
  });
  // The first one migrates the database; the others start together.
  await api[0]!.start();
  await Promise.all([api[1]!.start(), ...workers.map((w) => w.start())]);
  ({ db: metadata } = await openDatabase({ databaseUrl: db.url, dataDir }));
  cleanups.push(() => metadata.destroy());
  const t = await api[1]!.call('POST', '/v1/auth/signup', undefined, { email: 'multi@example.com', password: 'correct horse' });
  token = t.access_token;
}, 120_000);

afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

describe('several API and worker processes on one PostgreSQL', { timeout: 90_000 }, () => {
  it('wakes a listener in another process: a kind signalled through one pool is heard through another', async () => {
    // Two pools and two listeners, as two processes have: b's local delivery never reaches a.
    const opened = await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: dbUrl, dataDir: work })));
    const log = { warn: () => undefined } as never;
    const [a, b] = opened.map((o) => createJobSignals({ databaseUrl: dbUrl, db: o.db, log }));
    try {
      const heard: string[] = [];
      a!.onWake('offline', () => heard.push('offline'));
      a!.onWake('media', () => heard.push('media'));
      a!.onStopped((id) => heard.push(`stop ${id}`));
      await a!.ready();
      // Once listening, every kind looks once (for what was signalled while nobody listened): not what is tested here.
      await new Promise((r) => setTimeout(r, 50));
      heard.length = 0;
      b!.wake('media');
      b!.stopped(['task-1']);
      await until(async () => heard.length, (n) => n >= 2, 10_000);
      expect(heard.sort()).toEqual(['media', 'stop task-1']);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
      await Promise.all(opened.map((o) => o.db.destroy()));
    }
  });

  it('completes an upload whose tus chunks go alternately to the two API processes, with the right hash', async () => {
    const { content, hash, created, path, headers } = await resumable('split.bin', 3 * MiB + 1234);
    const chunk = 512 * KiB;
    for (let offset = 0, i = 0; offset < content.length; offset += chunk, i++) {
      const via = api[i % 2]!;
      // Each process sees what the other received.
      const head = await fetch(`${via.base}${path}`, { method: 'HEAD', headers });
      expect(Number(head.headers.get('upload-offset'))).toBe(offset);
      const res = await fetch(`${via.base}${path}`, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: content.subarray(offset, offset + chunk),
      });
      expect(res.status, await res.text()).toBe(204);
    }
    const [done] = Object.values(await allComplete([created.task.id]));
    const file = await api[1]!.call('GET', `/drive/v1/files/${done!.file_id}`, token);
    expect(file).toMatchObject({ name: 'split.bin', size: String(content.length), hash });
    expect(await sha256Of(file.web_content_link)).toBe(createHash('sha256').update(content).digest('hex'));
  });

  it('hands an upload to the other API process mid-chunk: the first stops writing, the client goes on from what was kept', async () => {
    const { content, hash, created, path, headers } = await resumable('handed-over.bin', 12 * MiB + 777);
    // A client whose connection to process 0 stalled after 6 MiB: its request is still open there.
    let sent = 0;
    const stalled = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent >= 6 * MiB) return new Promise(() => undefined);
        c.enqueue(content.subarray(sent, sent + 256 * KiB));
        sent += 256 * KiB;
      },
    });
    const gone = new AbortController();
    void fetch(`${api[0]!.base}${path}`, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: stalled,
      duplex: 'half',
      signal: gone.signal,
    } as RequestInit).catch(() => undefined);
    await until(async () => sent, (n) => n >= 6 * MiB, 20_000);
    // It reconnects through process 1: asking for the offset takes the lock from the request process 0 still holds.
    const head = await fetch(`${api[1]!.base}${path}`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    // What process 0 received before it let go is kept (the bytes still in flight on the wire may not have arrived).
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(6 * MiB);
    gone.abort();
    const rest = await fetch(`${api[1]!.base}${path}`, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: content.subarray(offset),
    });
    expect(rest.status, await rest.text()).toBe(204);
    const [done] = Object.values(await allComplete([created.task.id]));
    const file = await api[0]!.call('GET', `/drive/v1/files/${done!.file_id}`, token);
    expect(file).toMatchObject({ name: 'handed-over.bin', size: String(content.length), hash });
    expect(await sha256Of(file.web_content_link)).toBe(createHash('sha256').update(content).digest('hex'));
  });

  it(`runs ${DOWNLOADS} cloud downloads queued through both API processes, each exactly once, on the workers only`, async () => {
    const expected = new Map<string, string>();
    for (let i = 0; i < DOWNLOADS; i++) {
      const body = randomBytes(96 * KiB + i);
      bodies.set(`/dl/file-${i}.bin`, body);
      expected.set(`file-${i}.bin`, await contentHashOf(body));
    }
    const ids: string[] = [];
    for (let i = 0; i < DOWNLOADS; i++) ids.push(await download(api[i % 2]!, `${originBase}/dl/file-${i}.bin`));
    const done = await allComplete(ids);

    // One file each, with its content.
    const listed = await api[0]!.call('GET', '/drive/v1/files?parent_id=&limit=100', token);
    const names = (listed.files as { name: string; hash: string }[]).filter((f) => f.name.startsWith('file-'));
    expect(names.map((f) => f.name).sort()).toEqual([...expected.keys()].sort());
    for (const f of names) expect(f.hash).toBe(expected.get(f.name));
    expect(new Set(Object.values(done).map((t) => t.file_id)).size).toBe(DOWNLOADS);
    // Each fetched once from the origin, started once by one worker, and never by an API process.
    for (let i = 0; i < DOWNLOADS; i++) expect(served.get(`/dl/file-${i}.bin`)).toBe(1);
    const started = starts('offline task started', 'task');
    for (const id of ids) expect(started.get(id)?.reduce((a, b) => a + b)).toBe(1);
    for (const a of api) expect(a.logged('offline task started')).toEqual([]);
  });

  it(`transcodes ${VIDEOS} videos played through both API processes, each exactly once`, async () => {
    const dir = mkdtempSync(join(work, 'videos-'));
    for (let i = 0; i < VIDEOS; i++) {
      execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=15:duration=1,hue=h=${i * 60}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', `v${i}.mp4`], { cwd: dir });
      bodies.set(`/video/clip-${i}.mp4`, readFileSync(join(dir, `v${i}.mp4`)));
    }
    const ids: string[] = [];
    for (let i = 0; i < VIDEOS; i++) ids.push(await download(api[i % 2]!, `${originBase}/video/clip-${i}.mp4`));
    const done = Object.values(await allComplete(ids));
    const hashes: string[] = [];
    for (const [i, t] of done.entries()) {
      // Played through either API process: each queues the transcode and wakes the workers.
      const f = await api[i % 2]!.call('GET', `/drive/v1/files/${t.file_id}?usage=PLAY`, token);
      hashes.push(f.hash);
    }
    expect(new Set(hashes).size).toBe(VIDEOS);
    const jobs = await until(
      () => metadata.selectFrom('media_jobs').selectAll().where('hash', 'in', hashes).execute(),
      (rows) => rows.length === VIDEOS && rows.every((r) => r.phase === COMPLETE || r.phase === 'PHASE_TYPE_ERROR'),
      75_000,
    );
    for (const j of jobs) expect(j, j.message).toMatchObject({ phase: COMPLETE, attempts: 1 });
    const started = starts('transcode started', 'hash');
    for (const h of hashes) expect(started.get(h)?.reduce((a, b) => a + b)).toBe(1);
    for (const a of api) expect(a.logged('transcode started')).toEqual([]);
  });

  it('counts failed sign-ins spread over both API processes towards one limit', async () => {
    const wrong = (i: number) =>
      fetch(`${api[i % 2]!.base}/v1/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'multi@example.com', password: `wrong ${i}` }) });
    // Ten free tries for a client, and the eleventh, whichever process took them; then a wait of a second, doubling.
    // Counted per process, each would give ten free ones: nothing would be held back before the twenty-first.
    const statuses: number[] = [];
    for (let i = 0; i < 16 && !statuses.includes(429); i++) statuses.push((await wrong(i)).status);
    expect(statuses.slice(0, 11)).toEqual(Array(11).fill(400));
    expect(statuses).toContain(429);
    expect(statuses.indexOf(429)).toBeLessThan(16);
  });

  it('closes registration through one API process, and the other refuses the next sign-up at once', async () => {
    const signUp = (i: number, email: string) =>
      fetch(`${api[i]!.base}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse' }) });
    const op = await api[0]!.call('POST', '/v1/auth/signup', undefined, { email: 'operator@example.com', password: 'correct horse' });
    await metadata.updateTable('users').set({ is_admin: 1 }).where('id', '=', op.sub).execute();
    // Both processes have answered a request already, so each has read the settings before the change.
    expect((await signUp(1, 'before@example.com')).status).toBe(200);
    await api[0]!.call('PATCH', '/admin/v1/settings', op.access_token, { registration: 'closed' });
    const refused = await signUp(1, 'after@example.com');
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([403, 'permission_denied']);
    await api[1]!.call('PATCH', '/admin/v1/settings', op.access_token, { registration: null });
    expect((await signUp(0, 'again@example.com')).status).toBe(200);
  });

  it('finishes a download on the other worker after the one running it is killed; progress shows through both API processes', async () => {
    const content = randomBytes(6 * MiB);
    const slow = slowOrigin(content, 1 * MiB);
    const base = await listen(slow.server);
    cleanups.push(() => close(slow.server));
    const id = await download(api[0]!, `${base}/big.bin`);
    // Progress written by a worker, read through the API process that did not create the task.
    const running = await until(() => api[1]!.call('GET', `/drive/v1/tasks/${id}`, token), (x) => x.progress >= 10, 30_000);
    expect(running.phase).toBe('PHASE_TYPE_RUNNING');
    const owner = starts('offline task started', 'task').get(id)!;
    expect(owner.reduce((a, b) => a + b)).toBe(1);
    const victim = owner[0] === 1 ? 0 : 1;
    await workers[victim]!.crash();

    const [done] = Object.values(await allComplete([id]));
    const survivor = workers[1 - victim]!;
    expect(survivor.logged('offline task started').filter((l) => l.task === id)).toHaveLength(1);
    // The killed worker's partial file stayed on its own disk: the survivor fetched the file again from the origin.
    expect(slow.ranges.length).toBeGreaterThanOrEqual(2);
    const file = await api[0]!.call('GET', `/drive/v1/files/${done!.file_id}`, token);
    expect(file).toMatchObject({ name: 'big.bin', size: String(content.length), hash: await contentHashOf(content) });
  });
});
