/**
 * A file's bytes from its download link, measured against nginx serving the same file (sendfile) in the same run:
 * files of random bytes (300 MB and 1 GB; HAUL_BENCH_DOWNLOAD_MB lists other sizes in MiB, comma-separated) read by
 * `curl -o /dev/null` over loopback from
 *   - nginx, the file in its root (static, sendfile);
 *   - Haul's download link (GET /drive/v1/content/{id}: link check, allowance, the stream from the blob store);
 *   - the same link through nginx in front of a second Haul with HAUL_ACCEL_REDIRECT: Haul checks and charges, nginx
 *     sends the blob from its internal location (apps/server/test/accel-proxies.ts, docs/decisions/serving-bytes.md).
 * Rounds take turns (HAUL_BENCH_ROUNDS, default 3) after one warm read each, so every source reads from the page
 * cache; medians compared, aim: Haul at 0.8 of nginx or better. Prints CPU seconds of the serving processes too.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCEL_PREFIX, startNginxAccel } from '../apps/server/test/accel-proxies.js';
import { signUpClient } from './fixtures.js';
import { cpuSecondsOf, startHaulProcess, type HaulProcess } from './haul-process.js';
import { Cleanup, loadLine, mbps, median, MiB, requireTool, runTimed, startNginx, writeRandomFile } from './references.js';

const SIZES = (process.env.HAUL_BENCH_DOWNLOAD_MB ?? '300,1024').split(',').map((s) => Number(s.trim()) * MiB);
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const CURL = '/usr/bin/curl';

/** Signs up, stores `file` as `name` through WebDAV (not measured), and answers its download link. */
async function linkOf(haul: HaulProcess, email: string, file: string, name: string): Promise<string> {
  const { client } = await signUpClient(haul.base, email);
  const me = await client.call('getMe');
  const { sudo_token } = await client.call('grantSudo', { body: { password: 'bench password 1' } });
  const made = await client.call('createAppPassword', { body: { name: 'bench', sudo_token } });
  await runTimed(CURL, ['-sfS', '-T', file, '-u', `${me.email}:${made.password}`, `${haul.base}/dav/${name}`]);
  const top = await client.call('listFiles', { query: { parent_id: '' } });
  const id = top.files.find((f) => f.name === name)?.id;
  if (!id) throw new Error(`${name} is not in the drive`);
  return (await client.call('getFile', { params: { id }, query: { usage: 'FETCH' } })).web_content_link!;
}

/** One read to /dev/null: seconds, and the bytes curl counted (checked against the file's size). */
async function read(url: string): Promise<{ seconds: number; bytes: number }> {
  const r = await runTimed(CURL, ['-sfS', '-o', '/dev/null', '-w', '%{size_download}', url]);
  return { seconds: r.seconds, bytes: Number(r.stdout.trim()) };
}

const cleanup = new Cleanup();
try {
  requireTool(CURL, 'curl');
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-download-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  console.log(`download links against nginx; ${loadLine()}`);

  const nginx = await startNginx(join(work, 'nginx'));
  cleanup.add(() => nginx.stop());
  const haul = await startHaulProcess();
  cleanup.add(() => haul.stop());
  const accelHaul = await startHaulProcess({ HAUL_ACCEL_REDIRECT: ACCEL_PREFIX });
  cleanup.add(() => accelHaul.stop());
  const front = await startNginxAccel(join(work, 'front'), accelHaul.base, join(accelHaul.dataDir, 'blobs'));
  cleanup.add(() => front.stop());

  for (const bytes of SIZES) {
    const name = `random-${bytes / MiB}.bin`;
    const file = join(work, name);
    await writeRandomFile(file, bytes);
    mkdirSync(nginx.root, { recursive: true });
    linkSync(file, join(nginx.root, name));
    const direct = await linkOf(haul, `bench-download-${bytes}@example.com`, file, name);
    const accelLink = new URL(await linkOf(accelHaul, `bench-download-accel-${bytes}@example.com`, file, name));
    const sources = {
      nginx: { url: `${nginx.base}/${name}`, pid: nginx.pid },
      haul: { url: direct, pid: haul.pid },
      accel: { url: `${front.base}${accelLink.pathname}${accelLink.search}`, pid: accelHaul.pid },
    };
    const times = { nginx: [] as number[], haul: [] as number[], accel: [] as number[] };
    const cpu = { nginx: 0, haul: 0, accel: 0 };
    for (const s of Object.values(sources)) await read(s.url);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [key, s] of Object.entries(sources) as [keyof typeof sources, (typeof sources)['nginx']][]) {
        const cpu0 = cpuSecondsOf(s.pid);
        const r = await read(s.url);
        cpu[key] += cpuSecondsOf(s.pid) - cpu0;
        if (r.bytes !== bytes) throw new Error(`${key} sent ${r.bytes} bytes of ${bytes}`);
        times[key].push(r.seconds);
      }
    }
    const line = (label: string, xs: number[], c: number) =>
      `  ${label.padEnd(44)} median ${median(xs).toFixed(3)} s ${mbps(bytes, median(xs)).padStart(10)}   rounds: ${xs.map((x) => x.toFixed(3)).join(', ')} s   CPU ${(c / ROUNDS).toFixed(2)} s a read`;
    console.log(`${(bytes / MiB).toFixed(0)} MB, curl -o /dev/null, ${ROUNDS} rounds; ${loadLine()}`);
    console.log(line('nginx (sendfile)', times.nginx, cpu.nginx));
    console.log(line("Haul's download link", times.haul, cpu.haul));
    console.log(line('the link through nginx (X-Accel-Redirect)', times.accel, cpu.accel));
    console.log(`  Haul/nginx: ${(median(times.nginx) / median(times.haul)).toFixed(2)}   through nginx/nginx: ${(median(times.nginx) / median(times.accel)).toFixed(2)}   (aim >= 0.8)`);
    rmSync(join(nginx.root, name));
    rmSync(file);
  }
} finally {
  await cleanup.run();
}
