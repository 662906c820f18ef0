/**
 * The real server, as `npm start` runs it (the bundle in apps/server/dist, plain node), in a child process that a test can kill -9 and start again on the same
 * data directory (and database), with the waiting and checking helpers such tests share.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import pg from 'pg';
import * as tus from 'tus-js-client';
import { afterAll, afterEach, expect } from 'vitest';
import { newId } from '../src/lib/ids.js';
import { s3ConfigFor, testBucket, testS3 } from './s3-server.js';

const repoRoot = new URL('../../../', import.meta.url).pathname;
/** The server as `npm start` runs it: the bundle test/global-build.ts makes before the suite. */
export const SERVER_MAIN = new URL('../dist/main.js', import.meta.url).pathname;
/** `haul-admin` from the same bundle. */
export const ADMIN_MAIN = new URL('../dist/admin.js', import.meta.url).pathname;

/** Fails with the install step when a system tool the test drives is missing. */
export function need(tool: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
    throw new Error(`${tool} is missing: install it with "apt-get install -y ${pkg}".`);
}

/**
 * A temporary folder for a test file's data folders (removed after the file), and the clean-up steps its tests add:
 * run after each test, the last added first.
 */
export function crashTestFolder(prefix: string): { work: string; cleanups: (() => Promise<void> | void)[] } {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  return { work, cleanups };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `what` until `ok` holds; failures of `what` (a server that is down) count as "not yet". */
export async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what().catch(() => undefined as T);
    if (v !== undefined && ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting; last: ${String(JSON.stringify(v)).slice(0, 400)}`);
    await sleep(150);
  }
}

/** A database of its own on the PostgreSQL server the suite runs against, or SQLite in the data directory. */
export async function database(): Promise<{ url: string | null; drop: () => Promise<void> }> {
  const base = process.env.HAUL_TEST_DATABASE_URL;
  if (!base) return { url: null, drop: async () => undefined };
  const name = `haul_crash_${newId().toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * The settings a crash test's server runs with: its data folder and database, loopback peers allowed, no DHT, a
 * quiet log, no web app, and tasks taken over two seconds after a crash rather than a minute. `more` adds or overrides.
 */
export function crashTestEnv(dataDir: string, db: { url: string | null }, more: Record<string, string> = {}): Record<string, string> {
  return {
    HAUL_DATA_DIR: dataDir,
    HAUL_ALLOW_PRIVATE_NETWORK: '1',
    HAUL_TORRENT_DHT: '0',
    HAUL_TASK_LEASE_SECONDS: '2',
    HAUL_LOG_LEVEL: 'warn',
    HAUL_WEB_DIR: join(dataDir, 'no-web'),
    DATABASE_URL: db.url ?? '',
    ...more,
  };
}

/** The real server, as `npm start` runs it, in a child process. */
export class HaulProcess {
  child: ChildProcess | null = null;
  readonly base: string;
  /** With `keepLog`: every line the process wrote to standard output (its JSON log), across its lives. */
  readonly log: string[] = [];
  constructor(
    private readonly port: number,
    readonly env: Record<string, string>,
    /** `role`: the first argument of main.ts (serve, worker, all); `keepLog`: collect its log lines. */
    private readonly opts: { role?: string; keepLog?: boolean } = {},
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    // HAUL_TEST_BLOB_STORE=s3: a bucket of its own, kept across restarts like the data directory.
    if (process.env.HAUL_TEST_BLOB_STORE === 's3' && !this.env.HAUL_S3_BUCKET) {
      const s3 = await s3ConfigFor(await testS3(), testBucket());
      Object.assign(this.env, { HAUL_BLOB_STORE: 's3', HAUL_S3_ENDPOINT: s3.endpoint!, HAUL_S3_BUCKET: s3.bucket, HAUL_S3_REGION: s3.region, HAUL_S3_ACCESS_KEY_ID: s3.accessKeyId!, HAUL_S3_SECRET_ACCESS_KEY: s3.secretAccessKey! });
    }
    const worker = this.opts.role === 'worker';
    const piped = worker || !!this.opts.keepLog;
    const child = spawn(process.execPath, [SERVER_MAIN, ...(this.opts.role ? [this.opts.role] : [])], {
      cwd: repoRoot,
      // The test's own env wins (a public URL through a proxy, say).
      env: { ...process.env, PORT: String(this.port), HAUL_HOST: '127.0.0.1', HAUL_PUBLIC_URL: this.base, HAUL_FIRST_RUN_SETUP: 'off', ...this.env },
      stdio: ['ignore', piped ? 'pipe' : 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    let ready = false;
    if (piped) {
      let rest = '';
      child.stdout!.on('data', (d: Buffer) => {
        const lines = (rest + d.toString()).split('\n');
        rest = lines.pop()!;
        for (const line of lines) {
          if (line.startsWith('Haul worker is running')) ready = true;
          if (this.opts.keepLog) this.log.push(line);
        }
      });
    }
    this.child = child;
    const end = Date.now() + 60_000;
    // A worker answers on no port: it is up once it says so.
    const up = () => (worker ? Promise.resolve(ready) : fetch(`${this.base}/drive/v1/about`).then(() => true, () => false));
    while (!(await up())) {
      if (child.exitCode !== null || Date.now() > end) throw new Error(`the server did not start: ${stderr}`);
      await sleep(100);
    }
  }

  /** The log lines (parsed) whose message is `msg`. */
  logged(msg: string): Record<string, unknown>[] {
    return this.log.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg);
  }

  /** kill -9: no shutdown hook runs, the task stays RUNNING in the database. */
  async crash(): Promise<void> {
    const child = this.child!;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  /** SIGTERM: the graceful stop; resolves with the exit code. */
  async stop(): Promise<number | null> {
    const child = this.child!;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    const code = await exited;
    this.child = null;
    return code;
  }

  /** Calls the API; a non-2xx answer throws with its body. */
  async call(method: string, path: string, token?: string, body?: unknown): Promise<any> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }
}

/**
 * Watches a folder's listing while the test runs, across both lives of the server: every file it ever shows must be
 * the finished one (its full size and content hash). Returns a function that stops watching and gives what it saw.
 */
export function watchListing(haul: HaulProcess, token: () => string, expected: { name: string; size: number; hash: string }) {
  const seen: string[] = [];
  let looks = 0;
  let on = true;
  const loop = (async () => {
    while (on) {
      const page = await haul.call('GET', '/drive/v1/files?parent_id=&limit=100', token()).catch(() => null);
      if (page) {
        looks++;
        for (const f of page.files as { name: string; size: string; hash: string; kind: string }[]) {
          const whole = f.name === expected.name && f.size === String(expected.size) && f.hash === expected.hash;
          if (!whole) seen.push(`${f.kind} ${f.name} ${f.size} ${f.hash}`);
        }
      }
      await sleep(100);
    }
  })();
  return async () => {
    on = false;
    await loop;
    return { partial: seen, looks };
  };
}

/** The SHA-256 of what a download link serves (which must answer 200). */
export async function sha256Of(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const h = createHash('sha256');
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) h.update(chunk);
  return h.digest('hex');
}

/**
 * Sends `content` to a tus upload URL with tus-js-client in PATCHes of `chunkSize` bytes, without retrying; records the
 * Upload-Offset of each PATCH in `patchOffsets` and resolves with what happened.
 */
export function tusSend(url: string, token: string, content: Buffer, chunkSize: number, patchOffsets: number[]) {
  return new Promise<{ ok: boolean; error?: string }>((resolve) => {
    new tus.Upload(content, {
      uploadUrl: url,
      headers: { authorization: `Bearer ${token}` },
      chunkSize,
      retryDelays: [],
      onBeforeRequest: (req) => {
        if (req.getMethod() === 'PATCH') patchOffsets.push(Number(req.getHeader('Upload-Offset')));
      },
      onSuccess: () => resolve({ ok: true }),
      onError: (err) => resolve({ ok: false, error: String(err) }),
    }).start();
  });
}

/** Delays each chunk so that no more than `rate` bytes a second pass. */
class Throttle extends Transform {
  constructor(private readonly rate: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: (err: null, data: Buffer) => void) {
    setTimeout(() => cb(null, chunk), (chunk.length / this.rate) * 1000);
  }
}

/** A TCP proxy on loopback to `port` that throttles what clients send; it outlives the server behind it. */
export async function throttledProxy(port: number, rate: number): Promise<{ base: string; server: Server }> {
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(new Throttle(rate)).pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/** An origin on loopback with Range support that sends `rate` bytes a second; it logs the Range of each request. */
export function slowOrigin(content: Buffer, rate: number): { server: HttpServer; ranges: string[]; unthrottle: () => void } {
  const ranges: string[] = [];
  let limited = true;
  const server = createHttpServer((req, res) => {
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    ranges.push(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, {
      'content-length': content.length - start,
      'accept-ranges': 'bytes',
      etag: '"crash-1"',
      'content-type': 'application/octet-stream',
      ...(m ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
    });
    const chunk = 64 * 1024;
    let at = start;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      // Unthrottled: the rest in one go, once a test has seen what it needed mid-transfer.
      const part = content.subarray(at, limited ? at + chunk : content.length);
      at += part.length;
      if (at >= content.length) {
        clearInterval(timer);
        res.end(part);
      } else res.write(part);
    }, (1000 * chunk) / rate);
    res.on('close', () => clearInterval(timer));
  });
  return { server, ranges, unthrottle: () => void (limited = false) };
}
