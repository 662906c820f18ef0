/**
 * One greedy account against one quiet one, per kind of background work, on one Haul process with its default slots:
 * - cloud downloads: greedy queues HAUL_BENCH_GREEDY (6) downloads from an origin sending 200 KB/s, then quiet adds one
 *   of 1 KB;
 * - unpacking: greedy unpacks three zips of 2,000 small entries each, then quiet unpacks a zip of two.
 * Prints the quiet account's wait (its task's creation to its completion) beside the same task on the idle server, the
 * reference doing the same work in the same run, and their ratio.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HaulClient } from '@haul/client';
import { signUpClient } from './fixtures.js';
import { startHaulProcess } from './haul-process.js';
import { Cleanup, loadLine } from './references.js';

const GREEDY = Number(process.env.HAUL_BENCH_GREEDY ?? 6);
const ENTRIES = 2000;

type Task = Awaited<ReturnType<HaulClient['call']>> & { id: string; phase: string; message: string; file_id: string };

async function finished(client: HaulClient, id: string): Promise<Task> {
  for (;;) {
    const t = (await client.call('getTask', { params: { id } })) as Task;
    if (t.phase === 'PHASE_TYPE_COMPLETE') return t;
    if (t.phase === 'PHASE_TYPE_ERROR') throw new Error(`task ${id} failed: ${t.message}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cleanup = new Cleanup();
try {
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-turns-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  // Zips made by Debian's zip: greedy's three big ones and quiet's small one.
  const zipOf = (name: string, count: number) => {
    const dir = join(work, name);
    mkdirSync(dir);
    for (let i = 0; i < count; i++) writeFileSync(join(dir, `f${i}.txt`), `${name} ${i}\n`);
    const r = spawnSync('zip', ['-q', '-r', '-0', `../${name}.zip`, '.'], { cwd: dir });
    if (r.status !== 0) throw new Error('zip failed: apt-get install zip');
    rmSync(dir, { recursive: true, force: true });
  };
  for (const z of ['big1', 'big2', 'big3']) zipOf(z, ENTRIES);
  zipOf('small', 2);

  const origin = createServer((req, res) => {
    const url = req.url ?? '';
    if (url.endsWith('.zip')) return void res.end(readFileSync(join(work, url.slice(1))));
    if (!url.startsWith('/slow/')) return void res.end(Buffer.alloc(1024, 1));
    const size = 2 * 1024 * 1024;
    res.writeHead(200, { 'content-length': size });
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      const n = Math.min(20_000, size - sent);
      sent += n;
      res.write(Buffer.alloc(n, url.length));
      if (sent >= size) {
        clearInterval(timer);
        res.end();
      }
    }, 100);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  cleanup.add(() => void origin.close());
  const at = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;

  const haul = await startHaulProcess({ HAUL_ALLOW_PRIVATE_NETWORK: '1' });
  cleanup.add(() => haul.stop());
  const greedy = (await signUpClient(haul.base, 'greedy@example.com')).client;
  const quiet = (await signUpClient(haul.base, 'quiet@example.com')).client;
  const fetch = async (client: HaulClient, path: string) =>
    (await client.call('createFile', { body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: at + path }, parent_id: '' } })).task as unknown as Task;
  /** Fetches an archive into the drive (not measured) and answers its file id. */
  const archive = async (client: HaulClient, name: string) => (await finished(client, (await fetch(client, `/${name}.zip`)).id)).file_id;
  const unpack = async (client: HaulClient, fileId: string) => (await client.call('decompress', { body: { file_id: fileId } })).task as unknown as Task;
  const waitOf = async (client: HaulClient, start: () => Promise<Task>) => {
    const t0 = performance.now();
    await finished(client, (await start()).id);
    return (performance.now() - t0) / 1000;
  };
  console.log(loadLine());
  const line = (what: string, idle: number, busy: number) =>
    console.log(`${what}: quiet account's wait ${busy.toFixed(2)} s beside the greedy one, ${idle.toFixed(2)} s on the idle server (${(busy / idle).toFixed(1)}x)`);

  // Cloud downloads.
  const idleDownload = await waitOf(quiet, () => fetch(quiet, '/small-idle'));
  const greedyDownloads = await Promise.all(Array.from({ length: GREEDY }, (_, i) => fetch(greedy, `/slow/${i}`)));
  await new Promise((r) => setTimeout(r, 500));
  const busyDownload = await waitOf(quiet, () => fetch(quiet, '/small-busy'));
  line(`cloud downloads (${GREEDY} greedy at 200 KB/s each)`, idleDownload, busyDownload);
  for (const t of greedyDownloads) await finished(greedy, t.id);

  // Unpacking.
  const small = await archive(quiet, 'small');
  const bigs = [await archive(greedy, 'big1'), await archive(greedy, 'big2'), await archive(greedy, 'big3')];
  const idleUnpack = await waitOf(quiet, () => unpack(quiet, small));
  const t0 = performance.now();
  const greedyUnpacks = await Promise.all(bigs.map((id) => unpack(greedy, id)));
  await new Promise((r) => setTimeout(r, 500));
  const busyUnpack = await waitOf(quiet, () => unpack(quiet, small));
  line(`unpacking (3 greedy zips of ${ENTRIES} entries)`, idleUnpack, busyUnpack);
  for (const t of greedyUnpacks) await finished(greedy, t.id);
  console.log(`greedy's three unpacks took ${((performance.now() - t0) / 1000).toFixed(1)} s (${((3 * ENTRIES) / ((performance.now() - t0) / 1000)).toFixed(0)} entries/s)`);
} finally {
  await cleanup.run();
}
