/**
 * Cloud decompression: Haul unpacking a 1 GB zip (eight entries, deflated at level 1) that is in the drive, from the
 * task's creation to its completion (every entry hashed into the store and placed), beside `7zz x` of the same file
 * into a folder on the same disk, in the same run (aim: Haul at 0.7 of 7zz or better, memory flat); and, since Haul's
 * entries are durable (fsynced) before they are placed and 7zz's are not, beside `7zz x` followed by `sync` as well.
 * HAUL_BENCH_ARCHIVE_MB changes the size (MiB); HAUL_BENCH_ROUNDS the turns each side takes (default 3, medians compared).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sevenZipPath } from '../apps/server/src/archives/seven-zip.js';
import { signUpClient } from './fixtures.js';
import { sampleRss, startHaulProcess } from './haul-process.js';
import { Cleanup, flushDisk, loadLine, mbps, median, MiB, runTimed, writeRandomFile } from './references.js';

const BYTES = Number(process.env.HAUL_BENCH_ARCHIVE_MB ?? 1024) * MiB;
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const ENTRIES = 8;
const mb = (n: number) => `${(n / MiB).toFixed(0)} MB`;
const secs = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');

const cleanup = new Cleanup();
try {
  const z7 = sevenZipPath(null);
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-archive-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  const zip = join(work, 'big.zip');
  // The archive reaches the drive as a cloud download from a loopback origin (how it got there is not measured).
  const origin = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': statSync(zip).size });
    createReadStream(zip).pipe(res);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  cleanup.add(() => void origin.close());
  const src = join(work, 'src');
  mkdirSync(src);
  for (let i = 0; i < ENTRIES; i++) await writeRandomFile(join(src, `part-${i}.bin`), BYTES / ENTRIES);
  await runTimed(z7, ['a', '-tzip', '-mx=1', '-bd', zip, `${src}/*`]);
  rmSync(src, { recursive: true, force: true });
  const haul = await startHaulProcess({ HAUL_ALLOW_PRIVATE_NETWORK: '1' });
  cleanup.add(() => haul.stop());
  const { client } = await signUpClient(haul.base, 'bench-archive@example.com');
  const created = await client.call('createFile', { body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url: `http://127.0.0.1:${(origin.address() as { port: number }).port}/big.zip` }, parent_id: '' } });
  let fetched = created.task!;
  while (fetched.phase !== 'PHASE_TYPE_COMPLETE') {
    if (fetched.phase === 'PHASE_TYPE_ERROR') throw new Error(`fetching the archive failed: ${fetched.message}`);
    await new Promise((r) => setTimeout(r, 100));
    fetched = await client.call('getTask', { params: { id: fetched.id } });
  }
  console.log(loadLine());

  const refTimes: number[] = [];
  const syncedTimes: number[] = [];
  const haulTimes: number[] = [];
  const rss = sampleRss(haul.pid);
  for (let round = 1; round <= ROUNDS; round++) {
    const out = join(work, `x-${round}`);
    flushDisk();
    const x0 = performance.now();
    refTimes.push((await runTimed(z7, ['x', '-bd', '-y', `-o${out}`, zip])).seconds);
    spawnSync('sync');
    syncedTimes.push((performance.now() - x0) / 1000);
    rmSync(out, { recursive: true, force: true });
    flushDisk();

    // A new folder each round; the entries are not remembered across rounds because each round's archive copy is the
    // same content: the store would answer at once, so the memo is what round 2 on would measure. Round 1 counts.
    const t0 = performance.now();
    const { task } = await client.call('decompress', { body: { file_id: fetched.file_id } });
    let p = await client.call('decompressProgress', { query: { task_id: task.id } });
    while (p.task.phase !== 'PHASE_TYPE_COMPLETE') {
      if (p.task.phase === 'PHASE_TYPE_ERROR') throw new Error(`unpacking failed: ${p.task.message}`);
      await new Promise((r) => setTimeout(r, 50));
      p = await client.call('decompressProgress', { query: { task_id: task.id } });
    }
    haulTimes.push((performance.now() - t0) / 1000);
    if (Number(p.done_size) !== BYTES) throw new Error(`unpacked ${p.done_size} bytes, expected ${BYTES}`);
  }
  const mem = rss.stop();
  const h = haulTimes[0]!;
  const r = median(refTimes);
  console.log(`\nunpacking a ${mb(BYTES)} zip of ${ENTRIES} entries`);
  console.log(`  Haul (task created to complete, entries hashed and placed): ${h.toFixed(2)} s ${mbps(BYTES, h)} (first round; later rounds ${secs(haulTimes.slice(1))} s come from what is stored)`);
  console.log(`  7zz x to a folder (same disk):                              median ${r.toFixed(2)} s ${mbps(BYTES, r)}   rounds: ${secs(refTimes)} s`);
  const rs = median(syncedTimes);
  console.log(`  7zz x then sync (durable, as Haul):                         median ${rs.toFixed(2)} s ${mbps(BYTES, rs)}   rounds: ${secs(syncedTimes)} s`);
  console.log(`  Haul/7zz: ${(r / h).toFixed(2)} (aim >= 0.7); Haul/(7zz + sync): ${(rs / h).toFixed(2)}`);
  console.log(`  Haul process RSS: ${mb(mem.before)} before, peak ${mb(mem.peak)} (${mem.samples} samples, every 100 ms)${mem.hwm ? `, ${mb(mem.hwm)} VmHWM` : ''}`);
  console.log(loadLine());
} finally {
  await cleanup.run();
}
