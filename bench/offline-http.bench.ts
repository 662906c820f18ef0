/**
 * Offline download of an HTTP link: Haul fetching a 1 GB file from an origin on loopback (nginx, with Range and
 * sendfile) into the drive, from creating the task to the task complete, beside `curl -o /dev/null` of the same
 * URL in the same run (aim: Haul at 0.8 of curl or better), and the Haul process's peak memory meanwhile.
 * `curl -o` into a file on the same disk is printed too, as the reference that also writes the bytes, and `curl -o`
 * followed by `sync` of the file, as the reference that also makes them durable (Haul syncs before it answers).
 * HAUL_BENCH_OFFLINE_MB changes the size (MiB); HAUL_BENCH_ROUNDS the turns each side takes (default 3, medians compared).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUpClient } from './fixtures.js';
import { cpuSecondsOf, sampleRss, startHaulProcess } from './haul-process.js';
import { b3sum, Cleanup, flushDisk, loadLine, mbps, median, MiB, requireTool, runTimed, startNginx, writeRandomFile } from './references.js';

const BYTES = Number(process.env.HAUL_BENCH_OFFLINE_MB ?? 1024) * MiB;
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const mb = (n: number) => `${(n / MiB).toFixed(0)} MB`;
const secs = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');

const cleanup = new Cleanup();
try {
  requireTool('/usr/bin/curl', 'curl');
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-offline-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  const nginx = await startNginx(join(work, 'nginx'));
  cleanup.add(() => nginx.stop());
  const source = join(nginx.root, 'random.bin');
  await writeRandomFile(source, BYTES);
  const expected = (await b3sum(source)).hash;
  const haul = await startHaulProcess({ HAUL_ALLOW_PRIVATE_NETWORK: '1' });
  cleanup.add(() => haul.stop());
  const { client } = await signUpClient(haul.base, 'bench-offline@example.com');
  console.log(loadLine());

  const toNull: number[] = [];
  const toFile: number[] = [];
  const toSyncedFile: number[] = [];
  const haulTimes: number[] = [];
  const waits: number[] = [];
  // CPU seconds of the origin (nginx) and of the one downloading (curl, or the Haul process), per round.
  const nullCpu: { server: number; client: number }[] = [];
  const haulCpu: { server: number; client: number }[] = [];
  const rss = sampleRss(haul.pid);
  for (let round = 1; round <= ROUNDS; round++) {
    // A new query each round: the same link and validator again would complete at once from what is stored.
    const url = `${nginx.base}/random.bin?round=${round}`;
    const nginxCpu = cpuSecondsOf(nginx.pid);
    const curl = await runTimed('/usr/bin/curl', ['-sS', '-f', '-o', '/dev/null', url], { cpu: true });
    toNull.push(curl.seconds);
    nullCpu.push({ server: cpuSecondsOf(nginx.pid) - nginxCpu, client: curl.cpuSeconds });
    flushDisk();
    const copy = join(work, 'curl-copy.bin');
    toFile.push((await runTimed('/usr/bin/curl', ['-sS', '-f', '-o', copy, url])).seconds);
    rmSync(copy, { force: true });
    flushDisk();
    toSyncedFile.push((await runTimed('/bin/sh', ['-c', 'curl -sS -f -o "$1" "$2" && sync "$1"', 'sh', copy, url])).seconds);
    rmSync(copy, { force: true });
    flushDisk();

    const t0 = performance.now();
    const cpu0 = { haul: cpuSecondsOf(haul.pid), nginx: cpuSecondsOf(nginx.pid) };
    const created = await client.call('createFile', { body: { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' } });
    let task = created.task!;
    let startedAt = 0;
    while (task.phase !== 'PHASE_TYPE_COMPLETE') {
      if (task.phase === 'PHASE_TYPE_ERROR') throw new Error(`offline download failed: ${task.message}`);
      if (!startedAt && task.phase === 'PHASE_TYPE_RUNNING') startedAt = performance.now();
      await new Promise((r) => setTimeout(r, 50));
      task = await client.call('getTask', { params: { id: task.id } });
    }
    haulTimes.push((performance.now() - t0) / 1000);
    haulCpu.push({ server: cpuSecondsOf(nginx.pid) - cpu0.nginx, client: cpuSecondsOf(haul.pid) - cpu0.haul });
    waits.push(((startedAt || t0) - t0) / 1000);
    const file = await client.call('getFile', { params: { id: task.file_id } });
    if (file.hash !== expected || Number(file.size) !== BYTES) throw new Error(`stored ${file.size} bytes hashed ${file.hash}, expected ${BYTES} hashed ${expected}`);
  }
  const mem = rss.stop();

  const h = median(haulTimes);
  const n = median(toNull);
  const f = median(toFile);
  const synced = median(toSyncedFile);
  console.log(`\noffline download of ${mb(BYTES)} from nginx on loopback`);
  console.log(`  Haul (task created to complete, hash checked): median ${h.toFixed(2)} s ${mbps(BYTES, h)}   rounds: ${secs(haulTimes)} s`);
  console.log(`    of which before the task was seen running (queue pick-up, seen by 50 ms polls): ${secs(waits)} s`);
  console.log(`  curl -o /dev/null:                             median ${n.toFixed(2)} s ${mbps(BYTES, n)}   rounds: ${secs(toNull)} s`);
  console.log(`  curl -o file (same disk):                      median ${f.toFixed(2)} s ${mbps(BYTES, f)}   rounds: ${secs(toFile)} s`);
  console.log(`  curl -o file, then sync the file:              median ${synced.toFixed(2)} s ${mbps(BYTES, synced)}   rounds: ${secs(toSyncedFile)} s`);
  console.log(`  Haul/curl: ${(n / h).toFixed(2)} against /dev/null (aim >= 0.8), ${(f / h).toFixed(2)} against a file, ${(synced / h).toFixed(2)} against a synced file`);
  const cpu = (xs: { server: number; client: number }[]) => xs.map((x) => `${x.server.toFixed(1)}+${x.client.toFixed(1)}`).join(', ');
  console.log(`  CPU seconds, origin+downloader, per round: nginx+Haul ${cpu(haulCpu)} | nginx+curl (/dev/null) ${cpu(nullCpu)}`);
  console.log(`  Haul process RSS: ${mb(mem.before)} before, peak ${mb(mem.peak)} (${mem.samples} samples, every 100 ms)${mem.hwm ? `, ${mb(mem.hwm)} VmHWM` : ''}`);
  console.log(loadLine());
} finally {
  await cleanup.run();
}
