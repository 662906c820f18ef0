/**
 * A single-file torrent (1 GB; HAUL_BENCH_TORRENT_MB for quick runs) from a local aria2c seeder on loopback, fetched
 * three ways in one run: by Haul with its built-in engine, by Haul through a qBittorrent daemon, and by aria2c itself
 * (the reference). Haul runs as `npm start` runs it (a child process); its time is from adding the task to the file
 * being in the drive (so it includes hashing the file and moving it into the store). Prints each time, MB/s, the ratio
 * to aria2c and the peak resident memory (VmRSS sampled every 100 ms from /proc/<pid>/status) of the Haul process,
 * of the daemon and of aria2c.
 *
 * While Haul downloads, a client pages through a folder of 300 items (`GET /drive/v1/files`, 100 a page) every 20 ms;
 * the same client runs for a few seconds before the task too, so the run prints the API's p50/p99 idle and under the
 * torrent side by side, with the main thread's event-loop delay over each window (prom-client's
 * `monitorEventLoopDelay`, read from Haul's `/metrics`, which resets it at each scrape).
 *
 * HAUL_BENCH_TORRENT_ENGINES=builtin (or qbittorrent) runs one engine only; HAUL_BENCH_CPU_PROF=<dir> writes CPU
 * profiles of Haul's main thread and of its BitTorrent thread there; HAUL_BENCH_SERVER_JS=<file> runs a compiled
 * entry point with plain node instead of the TypeScript under tsx (to compare their memory).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server as Tracker } from 'bittorrent-tracker';
import { startQbittorrentDaemon } from '../apps/server/src/offline/qbittorrent-daemon.js';
import { freePort, pct, signUpClient } from './fixtures.js';
import { serverEntry, serverEnvironment } from './haul-process.js';
import type { HaulClient } from '@haul/client';

const MB = 1_000_000;
const SIZE_MB = Number(process.env.HAUL_BENCH_TORRENT_MB ?? 1000);
const SIZE = SIZE_MB * MB;
const repoRoot = new URL('../', import.meta.url).pathname;
const ENGINES = (process.env.HAUL_BENCH_TORRENT_ENGINES ?? 'builtin,qbittorrent').split(',');
const CPU_PROF = process.env.HAUL_BENCH_CPU_PROF;
const FOLDER_ITEMS = 300;
// The server as `npm start` runs it (its bundle), or the entry HAUL_BENCH_SERVER_JS names.
const serverArgs = [await serverEntry()];

for (const [tool, pkg] of [['aria2c', 'aria2'], ['mktorrent', 'mktorrent'], ['qbittorrent-nox', 'qbittorrent-nox']]) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) throw new Error(`${tool} is missing: install it with "apt-get install -y ${pkg}".`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process's resident memory now, in MB (0 once it has ended). */
function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Samples a process's resident memory every 100 ms until stopped, and gives the largest sample in MB. */
function watchMemory(pid: number) {
  let peak = 0;
  const read = () => void (peak = Math.max(peak, rssOf(pid)));
  const timer = setInterval(read, 100);
  read();
  return () => {
    read();
    clearInterval(timer);
    return peak;
  };
}

/** A folder of `FOLDER_ITEMS` items in the client's drive, for the API probe to page through. */
async function seedProbeFolder(client: HaulClient): Promise<string> {
  const folder = await client.call('createFile', { body: { kind: 'drive#folder', name: 'probe', parent_id: '' } });
  const id = folder.file!.id;
  for (let i = 0; i < FOLDER_ITEMS; i++) await client.call('createFile', { body: { kind: 'drive#folder', name: `item ${i}`, parent_id: id } });
  return id;
}

/** Pages through the folder every 20 ms until stopped, timing each page; gives the timings in ms. */
function probeApi(client: HaulClient, folderId: string) {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    let token = '';
    while (running) {
      const t0 = performance.now();
      const page = await client.call('listFiles', { query: { parent_id: folderId, limit: 100, ...(token ? { page_token: token } : {}) } });
      times.push(performance.now() - t0);
      token = page.next_page_token;
      await sleep(20);
    }
  })();
  return async () => {
    running = false;
    await loop;
    return times;
  };
}

/** The main thread's event-loop delay since the last scrape (prom-client resets it at each one), in ms. */
async function loopDelay(base: string): Promise<{ p50: number; p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  // The histogram samples every 10 ms (prom-client's resolution): what it reports beyond that is the delay.
  const read = (name: string) => Math.max(0, Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000 - 10);
  return { p50: read('nodejs_eventloop_lag_p50_seconds'), p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}

const fmtProbe = (times: number[], loop: { p50: number; p99: number; max: number }) =>
  `list p50 ${pct(times, 50).toFixed(1)} ms p99 ${pct(times, 99).toFixed(1)} ms (${times.length} pages); ` +
  `event loop p50 ${loop.p50.toFixed(1)} ms p99 ${loop.p99.toFixed(1)} ms max ${loop.max.toFixed(1)} ms`;

interface Result {
  label: string;
  seconds: number;
  rssMb: number;
  extra?: string;
  lines?: string[];
}

const work = mkdtempSync(join(tmpdir(), 'haul-bench-bt-'));
const children: ChildProcess[] = [];
const results: Result[] = [];
const tracker = new Tracker({ udp: false, http: true, ws: false, stats: false });

try {
  await new Promise<void>((r) => tracker.listen(0, '127.0.0.1', () => r()));
  const announce = `http://127.0.0.1:${(tracker.http!.address() as { port: number }).port}/announce`;

  // The content: random bytes, written in 16 MB slices; the torrent in 1 MiB pieces.
  const seedDir = join(work, 'seed');
  mkdirSync(seedDir);
  const source = join(seedDir, 'big.bin');
  const fd = openSync(source, 'w');
  const slice = Buffer.alloc(16 * MB);
  for (let left = SIZE; left > 0; left -= slice.length) writeSync(fd, randomFillSync(slice), 0, Math.min(left, slice.length));
  closeSync(fd);
  const torrentPath = join(work, 'big.torrent');
  const made = spawnSync('mktorrent', ['-a', announce, '-l', '20', '-o', torrentPath, source]);
  if (made.status !== 0) throw new Error(made.stderr.toString());
  const torrent = readFileSync(torrentPath);
  const common = ['--enable-dht=false', '--enable-dht6=false', '--bt-enable-lpd=false', '--enable-peer-exchange=false', '--summary-interval=0', '--console-log-level=warn'];
  const seeder = spawn('aria2c', [`--dir=${seedDir}`, '--seed-ratio=0.0', '--bt-seed-unverified=true', `--listen-port=${await freePort()}`, ...common, torrentPath], {
    stdio: 'ignore',
  });
  children.push(seeder);
  spawnSync('cat', [source], { stdio: ['ignore', 'ignore', 'ignore'] });
  await sleep(1000);
  console.log(`\n${SIZE_MB} MB single-file torrent, 1 MiB pieces, seeded by aria2c on loopback`);

  // (c) the reference: aria2c fetching the same torrent.
  {
    const out = join(work, 'aria2-out');
    const t0 = performance.now();
    const child = spawn('aria2c', [`--dir=${out}`, '--seed-time=0', `--listen-port=${await freePort()}`, ...common, torrentPath], { stdio: 'ignore' });
    children.push(child);
    const memory = watchMemory(child.pid!);
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    const seconds = (performance.now() - t0) / 1000;
    if (code !== 0) throw new Error(`aria2c exited with ${code}`);
    results.push({ label: 'aria2c (reference)', seconds, rssMb: memory() });
    rmSync(out, { recursive: true, force: true });
  }

  /** One Haul server as a child process, fetching the torrent through `engine`. */
  const viaHaul = async (label: string, env: Record<string, string>, daemonPid?: number) => {
    const dataDir = mkdtempSync(join(work, 'haul-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const prof = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...prof, ...serverArgs], {
      cwd: repoRoot,
      env: {
        ...(await serverEnvironment()),
        ...process.env,
        ...env,
        PORT: String(port),
        HAUL_HOST: '127.0.0.1',
        HAUL_PUBLIC_URL: base,
        HAUL_DATA_DIR: dataDir,
        HAUL_WEB_DIR: join(dataDir, 'no-web'),
        HAUL_ALLOW_PRIVATE_NETWORK: '1',
        HAUL_TORRENT_DHT: '0',
        HAUL_DEFAULT_QUOTA_BYTES: String(10 * SIZE),
        HAUL_LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    try {
      while (!(await fetch(`${base}/drive/v1/about`).then(() => true, () => false))) await sleep(100);
      await sleep(1000);
      const started = rssOf(child.pid!);
      const { client } = await signUpClient(base, `bench-${results.length}@example.com`);
      const folderId = await seedProbeFolder(client);
      // The API at rest first, the same client and pace as under the torrent.
      await loopDelay(base);
      const idleProbe = probeApi(client, folderId);
      await sleep(4000);
      const idleTimes = await idleProbe();
      const idleLoop = await loopDelay(base);
      const idle = rssOf(child.pid!);
      const memory = watchMemory(child.pid!);
      const daemonMemory = daemonPid ? watchMemory(daemonPid) : null;
      const busyProbe = probeApi(client, folderId);
      const t0 = performance.now();
      const created = await client.call('createFile', { body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', torrent: torrent.toString('base64'), parent_id: '' } });
      const taskId = created.task!.id;
      // When the engine reported every byte received: the rest is hashing and placing the file.
      let received = 0;
      for (;;) {
        const now = await client.call('getTask', { params: { id: taskId } });
        if (!received && Number(now.params?.received ?? 0) >= SIZE) received = performance.now();
        if (now.phase === 'PHASE_TYPE_COMPLETE') break;
        if (now.phase === 'PHASE_TYPE_ERROR') throw new Error(`${label}: ${now.message}`);
        await sleep(100);
      }
      const seconds = (performance.now() - t0) / 1000;
      const busyTimes = await busyProbe();
      const busyLoop = await loopDelay(base);
      const daemonPeak = daemonMemory?.();
      const extra = [`${started.toFixed(0)} MB started, ${idle.toFixed(0)} MB before the task`, ...(daemonPeak ? [`qbittorrent-nox peak ${daemonPeak.toFixed(0)} MB`] : [])];
      const placing = received ? `; all bytes in at ${((received - t0) / 1000).toFixed(2)} s, placed ${((performance.now() - received) / 1000).toFixed(2)} s later` : '';
      results.push({
        label,
        seconds,
        rssMb: memory(),
        extra: extra.join(', '),
        lines: [`idle:          ${fmtProbe(idleTimes, idleLoop)}`, `under torrent: ${fmtProbe(busyTimes, busyLoop)}${placing}`],
      });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  // (a) the built-in engine (WebTorrent in a thread of Haul's process).
  if (ENGINES.includes('builtin')) await viaHaul('Haul, built-in engine', {});
  // (b) Haul through a qBittorrent daemon sharing the disk.
  if (ENGINES.includes('qbittorrent')) {
    const daemon = await startQbittorrentDaemon();
    try {
      await viaHaul('Haul, qBittorrent daemon', { HAUL_TORRENT_ENGINE: 'qbittorrent', HAUL_TORRENT_DAEMON_URL: daemon.url }, daemon.pid);
    } finally {
      await daemon.stop();
    }
  }

  const reference = results[0]!.seconds;
  for (const r of results) {
    console.log(
      `  ${r.label.padEnd(26)} ${r.seconds.toFixed(2).padStart(7)} s  ${(SIZE / MB / r.seconds).toFixed(1).padStart(6)} MB/s  ` +
        `${(r.seconds / reference).toFixed(2)}x aria2c's time  peak RSS ${r.rssMb.toFixed(0)} MB${r.extra ? `  (${r.extra})` : ''}`,
    );
    for (const line of r.lines ?? []) console.log(`    ${line}`);
  }
  console.log("  (Haul's times run from adding the task to the file in the drive: they include hashing it and moving it into the store)");
  console.log(`  load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await new Promise<void>((r) => tracker.close(() => r()));
  rmSync(work, { recursive: true, force: true });
}
