/**
 * Roles of a Haul process (src/roles.ts): the first argument of main.ts, else HAUL_ROLE, else `all`. The parsing, and
 * the real entry point refusing an unknown role and running a worker with no port.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../src/offline/qbittorrent-daemon.js';
import { parseRole, roleRuns } from '../src/roles.js';
import { HaulProcess, SERVER_MAIN } from './child-server.js';

const repoRoot = new URL('../../../', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'haul-roles-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe(parseRole.name, () => {
  it('takes the first argument, else HAUL_ROLE, else all', () => {
    expect(parseRole([], {})).toBe('all');
    expect(parseRole(['serve'], {})).toBe('serve');
    expect(parseRole(['worker'], { HAUL_ROLE: 'serve' })).toBe('worker');
    expect(parseRole([], { HAUL_ROLE: 'worker' })).toBe('worker');
    expect(parseRole([], { HAUL_ROLE: ' Serve ' })).toBe('serve');
    expect(parseRole(['all'], {})).toBe('all');
    expect(parseRole([], { HAUL_ROLE: '' })).toBe('all');
  });

  it('refuses an unknown role, naming where it came from and the roles there are', () => {
    expect(() => parseRole(['servre'], {})).toThrow(/Unknown role "servre" \(from the first argument\).*serve.*worker.*all/);
    expect(() => parseRole([], { HAUL_ROLE: 'api' })).toThrow(/Unknown role "api" \(from HAUL_ROLE\)/);
  });

  it('says what each role starts', () => {
    expect(roleRuns('all')).toEqual({ http: true, jobs: true });
    expect(roleRuns('serve')).toEqual({ http: true, jobs: false });
    expect(roleRuns('worker')).toEqual({ http: false, jobs: true });
  });
});

describe('main.ts roles', { timeout: 90_000 }, () => {
  it('stops the boot on an unknown role, with the message and a failing exit code', () => {
    const r = spawnSync(process.execPath, [SERVER_MAIN, 'wroker'], {
      cwd: repoRoot,
      env: { ...process.env, HAUL_DATA_DIR: join(work, 'unknown'), DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Unknown role "wroker"');
  });

  it('runs a worker that listens on no port, and stops it gracefully', async () => {
    const port = await freeLoopbackPort();
    const dataDir = join(work, 'worker');
    const worker = new HaulProcess(port, { HAUL_DATA_DIR: dataDir, DATABASE_URL: '', HAUL_LOG_LEVEL: 'warn', HAUL_WEB_DIR: join(dataDir, 'no-web') }, { role: 'worker' });
    try {
      await worker.start();
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect(port, '127.0.0.1');
        s.once('connect', () => (s.destroy(), resolve(false)));
        s.once('error', () => resolve(true));
      });
      expect(refused).toBe(true);
      expect(await worker.stop()).toBe(0);
    } finally {
      if (worker.child) await worker.crash();
    }
  });

  it('answers health checks and metrics on HAUL_OPS_PORT, and nothing of the API there', async () => {
    const [port, opsPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
    const dataDir = join(work, 'worker-ops');
    const env = { HAUL_DATA_DIR: dataDir, DATABASE_URL: '', HAUL_LOG_LEVEL: 'warn', HAUL_WEB_DIR: join(dataDir, 'no-web'), HAUL_OPS_PORT: String(opsPort) };
    const worker = new HaulProcess(port, env, { role: 'worker' });
    try {
      await worker.start();
      const ops = `http://127.0.0.1:${opsPort}`;
      expect(await (await fetch(`${ops}/healthz`)).json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${ops}/readyz`);
      expect(ready.status).toBe(200);
      const metrics = await (await fetch(`${ops}/metrics`)).text();
      // The queue as the database holds it, and this process's blob store timings and Node figures.
      expect(metrics).toMatch(/^haul_jobs\{kind="offline",state="queued"\} \d+$/m);
      expect(metrics).toContain('# TYPE haul_blob_store_duration_seconds histogram');
      expect(metrics).toContain('process_resident_memory_bytes');
      // Relayed by a proxy: refused, as on an API process.
      expect((await fetch(`${ops}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(403);
      expect((await fetch(`${ops}/drive/v1/about`)).status).toBe(404);
      expect(await worker.stop()).toBe(0);
    } finally {
      if (worker.child) await worker.crash();
    }
  });
});
