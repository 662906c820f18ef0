/**
 * WebDAV, measured against nginx in the same run: a file of random bytes (1 GB; HAUL_BENCH_WEBDAV_MB in MiB) sent
 * with `rclone copyto` into Haul's /dav/ (a webdav remote of vendor "other", an app password) and read back, beside
 * `curl -T` into nginx's PUT and `curl -o` from it. Both sides write what they read to a file; rclone is told to
 * transfer every round (`--ignore-times`), as it would otherwise skip a file it finds already there. Rounds take turns
 * (HAUL_BENCH_ROUNDS, default 3) and the medians are compared; aim: Haul at 0.7 of nginx or better each way. Each round
 * also sends the file into /dav/ with `curl -T`, to tell the server's share of the upload from rclone's. It also
 * prints the Haul process's RSS before and at its peak during the uploads (the body is never held: flat). Each round
 * also reads the file with `curl -o /dev/null` from both, the servers' side of a download alone.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUpClient } from './fixtures.js';
import { sampleRss, startHaulProcess } from './haul-process.js';
import { Cleanup, flushDisk, loadLine, mbps, median, MiB, requireTool, runTimed, startNginx, writeRandomFile } from './references.js';

const BYTES = Number(process.env.HAUL_BENCH_WEBDAV_MB ?? 1024) * MiB;
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const RCLONE = '/usr/bin/rclone';

const cleanup = new Cleanup();
try {
  requireTool('/usr/bin/curl', 'curl');
  requireTool(RCLONE, 'rclone');
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-webdav-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  const file = join(work, 'random.bin');
  const back = join(work, 'back.bin');
  await writeRandomFile(file, BYTES);
  console.log(`${(BYTES / MiB).toFixed(0)} MB of random bytes; ${loadLine()}`);

  const nginx = await startNginx(join(work, 'nginx'));
  cleanup.add(() => nginx.stop());
  const haul = await startHaulProcess();
  cleanup.add(() => haul.stop());
  const { client } = await signUpClient(haul.base, 'bench-webdav@example.com');
  const me = await client.call('getMe');
  // signUpClient's password; making an app password takes a sudo token.
  const { sudo_token } = await client.call('grantSudo', { body: { password: 'bench password 1' } });
  const made = await client.call('createAppPassword', { body: { name: 'bench', sudo_token } });
  const obscured = (await runTimed(RCLONE, ['obscure', made.password])).stdout.trim();
  const remote = ['--webdav-url', `${haul.base}/dav/`, '--webdav-vendor', 'other', '--webdav-user', me.email, '--webdav-pass', obscured, '--config', '/dev/null', '--retries', '1', '--ignore-times'];

  const up = { haul: [] as number[], haulCurl: [] as number[], nginx: [] as number[] };
  const down = { haul: [] as number[], nginx: [] as number[], haulCurl: [] as number[], nginxCurl: [] as number[] };
  let peak = 0;
  let before = 0;
  for (let round = 0; round < ROUNDS; round++) {
    flushDisk();
    const rss = sampleRss(haul.pid);
    up.haul.push((await runTimed(RCLONE, ['copyto', file, ':webdav:big.bin', ...remote])).seconds);
    const r = rss.stop();
    before ||= r.before;
    peak = Math.max(peak, r.peak, r.hwm);
    flushDisk();
    up.nginx.push((await runTimed('/usr/bin/curl', ['-sfS', '-T', file, `${nginx.base}/big.bin`])).seconds);
    // The same PUT from curl: what of the gap is the server's and what the client's.
    flushDisk();
    up.haulCurl.push((await runTimed('/usr/bin/curl', ['-sfS', '-T', file, '-u', `${me.email}:${made.password}`, `${haul.base}/dav/big-curl.bin`])).seconds);
    flushDisk();
    rmSync(back, { force: true });
    down.haul.push((await runTimed(RCLONE, ['copyto', ':webdav:big.bin', back, ...remote])).seconds);
    if (statSync(back).size !== BYTES) throw new Error('the file read back through WebDAV has the wrong size');
    flushDisk();
    rmSync(back, { force: true });
    down.nginx.push((await runTimed('/usr/bin/curl', ['-sfS', '-o', back, `${nginx.base}/big.bin`])).seconds);
    // GET with curl into /dev/null: the server's side of a download, without the disk of the one reading.
    down.haulCurl.push((await runTimed('/usr/bin/curl', ['-sfS', '-o', '/dev/null', '-u', `${me.email}:${made.password}`, `${haul.base}/dav/big.bin`])).seconds);
    down.nginxCurl.push((await runTimed('/usr/bin/curl', ['-sfS', '-o', '/dev/null', `${nginx.base}/big.bin`])).seconds);
  }
  const line = (label: string, xs: number[]) => `  ${label.padEnd(36)} median ${median(xs).toFixed(2)} s ${mbps(BYTES, median(xs))}   rounds: ${xs.map((x) => x.toFixed(2)).join(', ')} s`;
  console.log('upload');
  console.log(line('Haul /dav/ (rclone copyto)', up.haul));
  console.log(line('nginx PUT (curl -T)', up.nginx));
  console.log(`  Haul/nginx: ${(median(up.nginx) / median(up.haul)).toFixed(2)}   (aim >= 0.7)`);
  console.log(line('Haul /dav/ (curl -T)', up.haulCurl));
  console.log(`  Haul with curl/nginx: ${(median(up.nginx) / median(up.haulCurl)).toFixed(2)}`);
  console.log('download');
  console.log(line('Haul /dav/ (rclone copyto)', down.haul));
  console.log(line('nginx GET (curl -o)', down.nginx));
  console.log(`  Haul/nginx: ${(median(down.nginx) / median(down.haul)).toFixed(2)}   (aim >= 0.7)`);
  console.log(line('Haul /dav/ (curl -o /dev/null)', down.haulCurl));
  console.log(line('nginx GET (curl -o /dev/null)', down.nginxCurl));
  console.log(`  Haul with curl/nginx: ${(median(down.nginxCurl) / median(down.haulCurl)).toFixed(2)}`);
  console.log(`Haul RSS: ${(before / MiB).toFixed(0)} MB before the uploads, ${(peak / MiB).toFixed(0)} MB at peak`);
} finally {
  await cleanup.run();
}
