/**
 * Operations endpoints and logs: /healthz, /readyz (healthy, with the database stopped, with the blob store
 * unreachable), /metrics (format, route patterns without ids, bytes, blob store timings, jobs, disk, token and loopback
 * rules), X-Request-Id (kept, bounded, echoed) and the request id reaching the worker's log lines for the task it created.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { statfs } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PHASE } from '@haul/shared';
import { startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.mjs';
import { buildHaul, type Haul } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { REQUEST_ID_MAX } from '../src/ops/request-id.js';
import { insertTask } from '../src/tasks/tasks.repository.js';
import { mkdir, startTestHaul, type TestHaul, until } from './helper.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isErrorObject = (b: any) => typeof b?.error === 'string' && typeof b?.error_code === 'number' && typeof b?.error_description === 'string';


/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** The value of one series in the text format, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('health and readiness', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  it('/healthz answers ok without a token', async () => {
    const res = await h.api('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('/readyz answers ok when the database and the blob store answer', async () => {
    const res = await h.api('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', blob_store: 'ok' } });
  });
});

describe('readiness with the blob store unreachable', () => {
  let h: TestHaul;
  beforeAll(async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const s3 = { endpoint, bucket: 'haul-blobs', region: 'us-east-1', accessKeyId: 'ops-test-key', secretAccessKey: 'ops-test-secret-value', forcePathStyle: true, presignedDownloads: false };
    h = await startTestHaul({ blobStore: 's3', s3 });
  });
  afterAll(() => h.destroy());

  it('answers 503 naming the blob store, alive all the same, and tells no secret', async () => {
    const res = await h.api('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(isErrorObject(res.body)).toBe(true);
    expect(res.body).toMatchObject({ error: 'unavailable', error_code: 14, details: [{ check: 'blob_store', status: 'failing' }] });
    expect(res.body.error_description).toMatch(/blob store/);
    expect(res.body.error_description).not.toMatch(/database/);
    expect(res.raw.toString()).not.toMatch(/ops-test-secret-value|ops-test-key|127\.0\.0\.1/);
    expect((await h.api('GET', '/healthz')).status).toBe(200);
  });
});

describe('readiness with the database stopped', { timeout: 120_000 }, () => {
  let pg: PgCluster;
  let haul: Haul;
  let dataDir: string;
  const get = async (url: string) => {
    const res = await haul.app.inject({ method: 'GET', url });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  beforeAll(async () => {
    pg = await startPgCluster();
    dataDir = mkdtempSync(join(tmpdir(), 'haul-ops-'));
    haul = await buildHaul({ ...loadConfig({}), firstRunSetup: false, dataDir, databaseUrl: pg.url, webDir: join(dataDir, 'no-web'), logLevel: 'silent' }, { logger: false });
  });
  afterAll(async () => {
    await haul?.close();
    pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 naming the database while it is away, and ok again once it is back', async () => {
    expect((await get('/readyz')).status).toBe(200);
    pg.pause();
    // pause() blocks the event loop while the cluster stops; a running process would have seen its idle connections
    // close by now, so the pool is given that moment before the probe (else it hands out a connection already closed).
    await new Promise((r) => setTimeout(r, 500));
    const away = await get('/readyz');
    expect(away.status).toBe(503);
    expect(away.body).toMatchObject({ error: 'unavailable', details: [{ check: 'database', status: 'failing' }] });
    expect(away.body.error_description).toMatch(/database/);
    // Liveness touches no database: an orchestrator must not restart a process for its database's sake.
    expect(await get('/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    pg.resume();
    expect((await until(() => get('/readyz'), (r) => r.status === 200)).body.status).toBe('ok');
  });
});

describe('metrics', () => {
  let h: TestHaul;
  let origin: string;
  beforeAll(async () => {
    h = await startTestHaul();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => h.destroy());

  it('exposes requests by route pattern (never raw ids), bytes, blob store timings, jobs and process metrics', async () => {
    const t = await h.signUp();
    const folderId = await mkdir(h, t.access_token, 'Metrics');
    const content = randomBytes(200_000);
    const file = await h.putFile(t, folderId, 'blob.bin', content);
    const got = await h.api('GET', `/drive/v1/files/${file.id}`, t.access_token);
    expect(got.status).toBe(200);
    // Over a real socket, so bytes on the wire are counted: a JSON body in, a file's bytes out.
    const signinBody = JSON.stringify({ username: 'nobody@example.com', password: 'x'.repeat(500) });
    const signin = await fetch(`${origin}/v1/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: signinBody });
    expect(signin.status).toBeGreaterThanOrEqual(400);
    await signin.arrayBuffer();
    const dl = await fetch(got.body.web_content_link.replace('http://haul.test', origin));
    expect(Buffer.compare(Buffer.from(await dl.arrayBuffer()), content)).toBe(0);
    // Cloud downloads as the queue holds them: one waiting, two failed (written directly: no request kicks a worker).
    const params = { kind: 'http', url: 'https://example.com/a.iso', parent_id: '' };
    const queuedId = await insertTask(h.ctx.db, { userId: t.sub, type: 'offline', phase: PHASE.PENDING, name: 'a.iso', params }, Date.now());
    for (let i = 0; i < 2; i++) await insertTask(h.ctx.db, { userId: t.sub, type: 'offline', phase: PHASE.ERROR, name: 'b.iso', params }, Date.now());
    // Failed is counted over the last day: a failure kept from the day before is not.
    await insertTask(h.ctx.db, { userId: t.sub, type: 'offline', phase: PHASE.ERROR, name: 'c.iso', params }, Date.now() - 25 * 3_600_000);
    await h.api('GET', '/drive/v1/no-such-endpoint/ABCDEF123');
    // An answer is counted when the server sees it finish, which can come after the client has read the last byte.
    await vi.waitFor(
      async () => {
        const now = await (await fetch(`${origin}/metrics`)).text();
        expect(sample(now, 'haul_http_received_bytes_total{route="/v1/auth/signin"}')).toBeDefined();
        expect(sample(now, 'haul_http_sent_bytes_total{route="/drive/v1/content/:id"}')).toBeDefined();
      },
      { timeout: 5000, interval: 50 },
    );

    const res = await fetch(`${origin}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^# HELP haul_http_requests_total /m);
    expect(text).toMatch(/^# TYPE haul_http_request_duration_seconds histogram$/m);
    expect(sample(text, 'haul_http_requests_total{method="GET",route="/drive/v1/files/:id",status="200"}')).toBe(1);
    expect(sample(text, 'haul_http_request_duration_seconds_count{method="GET",route="/drive/v1/files/:id",status="200"}')).toBe(1);
    expect(sample(text, 'haul_http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBe(1);
    // No id and no raw path reaches a label.
    for (const id of [file.id, folderId, queuedId, t.sub, 'ABCDEF123']) expect(text).not.toContain(id);
    expect(sample(text, 'haul_http_received_bytes_total{route="/v1/auth/signin"}')).toBe(Buffer.byteLength(signinBody));
    expect(sample(text, 'haul_http_sent_bytes_total{route="/drive/v1/content/:id"}')).toBeGreaterThan(content.length);
    expect(sample(text, 'haul_blob_store_duration_seconds_count{operation="put",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'haul_blob_store_duration_seconds_count{operation="read",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'haul_jobs{kind="offline",state="queued"}')).toBe(1);
    expect(sample(text, 'haul_jobs{kind="offline",state="failed"}')).toBe(2);
    expect(sample(text, 'haul_jobs{kind="offline",state="running"}')).toBe(0);
    expect(sample(text, 'haul_jobs{kind="decompress",state="running"}')).toBe(0);
    expect(sample(text, 'haul_jobs{kind="transcode",state="failed"}')).toBe(0);
    // The data folder's disk, as statfs sees it: the size to the byte, the free bytes within what it wrote meanwhile.
    const disk = await statfs(h.dataDir);
    expect(sample(text, 'haul_data_disk_bytes{state="size"}')).toBe(disk.blocks * disk.bsize);
    expect(Math.abs(sample(text, 'haul_data_disk_bytes{state="free"}')! - disk.bavail * disk.bsize)).toBeLessThan(64 * 1024 * 1024);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('on PostgreSQL, reports its connection pool: busy, idle, queries waiting and the time spent getting a connection', async () => {
    const scrape = async () => (await fetch(`${origin}/metrics`)).text();
    if (h.ctx.dialect === 'sqlite') {
      expect(await scrape()).not.toContain('haul_db_pool');
      return;
    }
    const before = await scrape();
    expect(sample(before, 'haul_db_pool_size')).toBe(10);
    const acquired = sample(before, 'haul_db_pool_acquired_total')!;
    expect(acquired).toBeGreaterThan(0);
    // Twelve queries of 0.5 s at once on ten connections: ten run, two wait.
    const sleeps = Array.from({ length: 12 }, () => sql`select pg_sleep(0.5)`.execute(h.ctx.db));
    await new Promise((r) => setTimeout(r, 200));
    const busy = await scrape();
    expect(sample(busy, 'haul_db_pool_connections{state="busy"}')).toBe(10);
    expect(sample(busy, 'haul_db_pool_waiting')).toBe(2);
    await Promise.all(sleeps);
    const after = await scrape();
    expect(sample(after, 'haul_db_pool_waiting')).toBe(0);
    expect(sample(after, 'haul_db_pool_acquired_total')).toBeGreaterThanOrEqual(acquired + 12);
    // The two that waited waited ~0.5 s each.
    expect(sample(after, 'haul_db_pool_wait_seconds_total')! - sample(before, 'haul_db_pool_wait_seconds_total')!).toBeGreaterThan(0.6);
  });

  it('without HAUL_METRICS_TOKEN answers only on this machine, and not what a proxy relays', async () => {
    const inject = (remoteAddress: string, headers: Record<string, string> = {}) => h.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    expect((await inject('127.0.0.1')).statusCode).toBe(200);
    expect((await inject('::1')).statusCode).toBe(200);
    for (const res of [await inject('203.0.113.7'), await inject('10.0.0.2'), await inject('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' }), await inject('127.0.0.1', { forwarded: 'for=203.0.113.7' })]) {
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'permission_denied', error_code: 7 });
    }
  });
});

describe('metrics with HAUL_METRICS_TOKEN', () => {
  let h: TestHaul;
  const token = 'metrics-' + randomBytes(12).toString('hex');
  beforeAll(async () => {
    h = await startTestHaul({ metricsToken: token });
  });
  afterAll(() => h.destroy());

  it('asks for the bearer token, from anywhere, loopback included', async () => {
    const inject = (authorization?: string, remoteAddress = '203.0.113.7') =>
      h.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: authorization ? { authorization } : {} });
    for (const res of [await inject(), await inject('Bearer wrong'), await inject(`Bearer ${token}x`), await inject(undefined, '127.0.0.1'), await inject(`Basic ${token}`)]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(JSON.parse(res.body)).toMatchObject({ error: 'unauthenticated', error_code: 16 });
      expect(res.body).not.toContain(token);
    }
    const ok = await inject(`Bearer ${token}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toMatch(/^# HELP /m);
  });
});

describe('request ids', () => {
  const lines: string[] = [];
  let h: TestHaul;
  let origin: Server;
  let base: string;
  const content = randomBytes(300_000);
  beforeAll(async () => {
    origin = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': content.length });
      res.end(content);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    h = await startTestHaul({ allowPrivateNetwork: true, logLevel: 'info' }, undefined, { logStream: { write: (l) => void lines.push(l) } });
    h.offline.start();
  });
  afterAll(async () => {
    origin.close();
    await h.destroy();
  });
  const withId = (id: string | undefined, url = '/healthz') => h.app.inject({ method: 'GET', url, headers: id === undefined ? {} : { 'x-request-id': id } });
  const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

  it('keeps a plain X-Request-Id, echoes it (404s too) and logs the request under it', async () => {
    expect((await withId('abc-123')).headers['x-request-id']).toBe('abc-123');
    expect((await withId('Req.42:a+b/c=', '/nowhere')).headers['x-request-id']).toBe('Req.42:a+b/c=');
    const longest = 'a'.repeat(REQUEST_ID_MAX);
    expect((await withId(longest)).headers['x-request-id']).toBe(longest);
    expect(logged().some((l) => l.reqId === 'abc-123' && l.msg === 'incoming request')).toBe(true);
  });

  it('replaces a missing, overlong or unsafe one with a new id', async () => {
    const seen = new Set<string>();
    for (const id of [undefined, '', 'a'.repeat(REQUEST_ID_MAX + 1), 'two words', 'quote"d', 'naïve', '{"msg":"forged"}']) {
      const echoed = String((await withId(id)).headers['x-request-id']);
      expect(echoed).toMatch(UUID);
      seen.add(echoed);
    }
    expect(seen.size).toBe(7);
  });

  it("follows a cloud download: the worker's log lines for the task carry the creating request's id", async () => {
    const t = await h.signUp();
    const res = await h.app.inject({
      method: 'POST',
      url: '/drive/v1/files',
      headers: { authorization: `Bearer ${t.access_token}`, 'x-request-id': 'abc-123' },
      payload: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `${base}/movie.bin` } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
    const taskId = JSON.parse(res.body).task.id as string;
    const done = await until(
      async () => (await h.api('GET', `/drive/v1/tasks/${taskId}`, t.access_token)).body,
      (x) => x.phase === 'PHASE_TYPE_COMPLETE' || x.phase === 'PHASE_TYPE_ERROR',
    );
    expect(done.phase).toBe('PHASE_TYPE_COMPLETE');
    const row = await h.ctx.db.selectFrom('tasks').select('request_id').where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(row.request_id).toBe('abc-123');
    const ofTask = await until(
      async () => logged().filter((l) => l.task === taskId),
      (ls) => ls.some((l) => l.msg === 'offline task ended'),
    );
    expect(ofTask.map((l) => l.msg)).toEqual(expect.arrayContaining(['offline task started', 'cloud download complete', 'offline task ended']));
    for (const l of ofTask) expect(l.reqId).toBe('abc-123');
    // A task made without a request id of its own gets the generated one, never another request's.
    const other = await h.api('POST', '/drive/v1/files', t.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `${base}/other.bin` } });
    const otherRow = await h.ctx.db.selectFrom('tasks').select('request_id').where('id', '=', other.body.task.id).executeTakeFirstOrThrow();
    expect(otherRow.request_id).toMatch(UUID);
  });
});
