/**
 * The real server, as `npm start` runs it, in a child process that a test can kill -9 and start again on the same
 * data directory (and database), with the waiting and checking helpers such tests share.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { newId } from '../src/lib/ids.js';

const repoRoot = new URL('../../../', import.meta.url).pathname;

/** Fails with the install step when a system tool the test drives is missing. */
export function need(tool: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
    throw new Error(`${tool} is missing: install it with "apt-get install -y ${pkg}".`);
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `what` until `ok` holds; failures of `what` (a server that is down) count as "not yet". */
export async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what().catch(() => undefined as T);
    if (v !== undefined && ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting; last: ${JSON.stringify(v).slice(0, 400)}`);
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

/** The real server, as `npm start` runs it, in a child process. */
export class HaulProcess {
  child: ChildProcess | null = null;
  readonly base: string;
  constructor(
    private readonly port: number,
    readonly env: Record<string, string>,
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, ...this.env, PORT: String(this.port), HAUL_HOST: '127.0.0.1', HAUL_PUBLIC_URL: this.base },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    this.child = child;
    const end = Date.now() + 60_000;
    while (!(await fetch(`${this.base}/drive/v1/about`).then(() => true, () => false))) {
      if (child.exitCode !== null || Date.now() > end) throw new Error(`the server did not start: ${stderr}`);
      await sleep(100);
    }
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
