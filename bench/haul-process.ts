/**
 * Haul run as its own process (as `npm start` runs it), so its memory can be read from /proc apart from the
 * benchmark's, and the resident set size sampled while something is being measured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './fixtures.js';

/** The server's bundle, as `npm start` runs it, built first when the source changed; HAUL_BENCH_SERVER_JS names another entry. */
export async function serverEntry(): Promise<string> {
  if (process.env.HAUL_BENCH_SERVER_JS) return resolve(process.env.HAUL_BENCH_SERVER_JS);
  // @ts-expect-error: a plain ES module of the repository's scripts, without type declarations.
  const { buildServer, SERVER_DIST } = await import('../scripts/build-server.mjs');
  await buildServer({ ifStale: true, quiet: true });
  return join(SERVER_DIST as string, 'main.js');
}

/** The environment `npm start` gives the server (SERVER_ENV of scripts/build-server.mjs); the caller's own settings win. */
export async function serverEnvironment(): Promise<Record<string, string>> {
  // @ts-expect-error: a plain ES module of the repository's scripts, without type declarations.
  const { SERVER_ENV } = await import('../scripts/build-server.mjs');
  return SERVER_ENV as Record<string, string>;
}

export interface HaulProcess {
  base: string;
  pid: number;
  dataDir: string;
  stop: () => Promise<void>;
}

/**
 * Starts the server's bundle (serverEntry) on a free loopback port and a fresh SQLite data dir. Node flags
 * for the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) come from `nodeArgs` or HAUL_BENCH_SERVER_ARGS.
 */
export async function startHaulProcess(
  env: Record<string, string> = {},
  nodeArgs: string[] = (process.env.HAUL_BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean),
): Promise<HaulProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-bench-server-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, await serverEntry()], {
    cwd: resolve(import.meta.dirname, '..'),
    env: {
      ...(await serverEnvironment()),
      ...process.env,
      HAUL_CONFIG: '',
      DATABASE_URL: '',
      HAUL_DATA_DIR: dataDir,
      PORT: String(port),
      HAUL_HOST: '127.0.0.1',
      HAUL_PUBLIC_URL: base,
      HAUL_WEB_DIR: join(dataDir, 'no-web'),
      HAUL_LOG_LEVEL: 'warn',
      HAUL_TORRENT_DHT: '0',
      HAUL_FIRST_RUN_SETUP: 'off',
      // Room for the largest benchmark file whatever its size.
      HAUL_DEFAULT_QUOTA_BYTES: String(2 ** 50),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error('Haul did not start within 60 s')), 60_000);
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Haul is running')) {
          clearTimeout(timer);
          ok();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`Haul exited with ${code} before it was ready:\n${out}`));
      });
    });
    child.stdout!.resume();
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, pid: child.pid!, dataDir, stop };
}

const statusField = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** Resident set size of a process now, in bytes. */
export const rssOf = (pid: number) => statusField(pid, 'VmRSS');

/** CPU time a process (all its threads) has used so far, user plus system, in seconds. */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface RssSampler {
  /** RSS when sampling started. */
  before: number;
  /** Stops sampling: the highest sample, and the kernel's own high-water mark since the start (0 when unknown). */
  stop: () => { before: number; peak: number; samples: number; hwm: number };
}

/** Samples a process's RSS every `everyMs`; the kernel's peak counter is reset first so VmHWM covers only this span. */
export function sampleRss(pid: number, everyMs = 100): RssSampler {
  let hwmReset = false;
  try {
    // "5" resets the peak RSS counter (proc(5), clear_refs); needs the right to write there.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    hwmReset = true;
  } catch {
    /* the sampled peak alone then */
  }
  const before = rssOf(pid);
  let peak = before;
  let samples = 1;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
      samples++;
    } catch {
      /* the process ended */
    }
  }, everyMs);
  return {
    before,
    stop: () => {
      clearInterval(timer);
      let hwm = 0;
      try {
        peak = Math.max(peak, rssOf(pid));
        if (hwmReset) hwm = statusField(pid, 'VmHWM');
      } catch {
        /* the process ended */
      }
      return { before, peak, samples, hwm };
    },
  };
}
