/**
 * The references the transfer benchmarks measure Haul against: Debian's nginx (static files with Range, and PUT
 * through its dav module), curl and b3sum, run as processes; and the large random files they move.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxConfig, runNginx } from '../apps/server/test/nginx-process.js';
import { freePort } from './fixtures.js';

export const MiB = 1024 * 1024;

/** Fails with the install step when a tool the benchmark needs is missing. */
export function requireTool(path: string, pkg: string): void {
  if (!existsSync(path)) throw new Error(`${path} not found: install it with "apt-get install -y ${pkg}".`);
}

/** MiB per second, printed. */
export const mbps = (bytes: number, seconds: number) => `${(bytes / MiB / seconds).toFixed(0)} MB/s`;

/** A file of `bytes` random bytes (written in 16 MiB blocks, so memory stays small). */
export async function writeRandomFile(path: string, bytes: number): Promise<void> {
  const block = Buffer.allocUnsafe(16 * MiB);
  const fh = await open(path, 'w');
  try {
    for (let at = 0; at < bytes; at += block.length) {
      const n = Math.min(block.length, bytes - at);
      randomFillSync(block, 0, n);
      await fh.write(block, 0, n);
    }
  } finally {
    await fh.close();
  }
}

const TIME = '/usr/bin/time';
let timed = 0;

/**
 * Runs a command to its end: its wall time in seconds, its output, and with `cpu` the CPU time it used (user plus
 * system, through GNU time; NaN when /usr/bin/time is missing). Throws on a non-zero exit.
 */
export function runTimed(cmd: string, args: string[], opts: { cpu?: boolean } = {}): Promise<{ seconds: number; stdout: string; cpuSeconds: number }> {
  const cpuFile = opts.cpu && existsSync(TIME) ? join(tmpdir(), `haul-bench-time-${process.pid}-${timed++}`) : null;
  const [bin, argv] = cpuFile ? [TIME, ['-f', '%U %S', '-o', cpuFile, cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(bin, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      let cpuSeconds = NaN;
      if (cpuFile) {
        const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
        cpuSeconds = user! + sys!;
        rmSync(cpuFile, { force: true });
      }
      if (code === 0) resolve({ seconds, stdout, cpuSeconds });
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/** BLAKE3 of a file with b3sum (hex), and how long it took. */
export async function b3sum(path: string, threads?: number): Promise<{ hash: string; seconds: number }> {
  requireTool('/usr/bin/b3sum', 'b3sum');
  const r = await runTimed('/usr/bin/b3sum', [...(threads ? ['--num-threads', String(threads)] : []), '--no-names', path]);
  return { hash: r.stdout.trim(), seconds: r.seconds };
}

export interface Nginx {
  base: string;
  pid: number;
  /** The folder it serves and where PUT writes. */
  root: string;
  stop: () => Promise<void>;
}

/** nginx on a free loopback port serving `dir/www` (static, with Range) and accepting PUT into it; state in `dir`. */
export async function startNginx(dir: string): Promise<Nginx> {
  const root = join(dir, 'www');
  const tmp = join(dir, 'body');
  for (const d of [root, tmp]) mkdirSync(d, { recursive: true });
  const port = await freePort();
  const http = `server {
    listen 127.0.0.1:${port};
    root ${root};
    location / {
      dav_methods PUT;
      client_max_body_size 0;
    }
  }`;
  const { child, stop } = await runNginx(dir, nginxConfig({ dir, tmp, workerConnections: 64, http }), port, 10_000);
  return { base: `http://127.0.0.1:${port}`, pid: child.pid!, root, stop };
}

/** Things to undo at the end, in reverse order, also when the run is interrupted (Ctrl-C): temp files are large. */
export class Cleanup {
  private steps: (() => unknown)[] = [];
  constructor() {
    process.once('SIGINT', () => void this.run().finally(() => process.exit(130)));
  }
  add(step: () => unknown): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch (err) {
        console.error('clean-up step failed:', (err as Error).message);
      }
    }
  }
}

/** The middle value (the lower of the two middle ones for an even count). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

/** Flushes dirty pages, so each timed transfer starts with the same disk write-back state. */
export function flushDisk(): void {
  spawnSync('sync');
}

/** The machine's load averages (1, 5, 15 min): context for figures taken on shared cores. */
export const loadLine = () => `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;
