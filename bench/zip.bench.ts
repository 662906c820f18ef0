/**
 * Zip downloads, measured against Info-ZIP's `zip` in the same run: one set of files (a folder of 1,000 small files of
 * 1-64 KiB and four large ones, ~1 GB of random bytes; HAUL_BENCH_ZIP_MB the total in MiB, HAUL_BENCH_ZIP_FILES the
 * small ones) is both in Haul's drive (sent in through /dav/) and on disk. Haul: the zip link asked for
 * (POST files:zip) and its whole body read by `curl`; the reference: `zip -0 -r - set` of the same folder on disk.
 * Both write to the same sink, /dev/null (the producer alone) and then a file on the same disk. Rounds take turns
 * (HAUL_BENCH_ROUNDS, default 3) and the medians are compared; aim: Haul at 0.9 of zip or better. Haul's zip is also
 * checked once with `unzip -tq` and against the reference's entry count. Small files are .bin (stored, as zip -0 does;
 * text would be deflated).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUpClient } from './fixtures.js';
import { cpuSecondsOf, sampleRss, startHaulProcess } from './haul-process.js';
import { Cleanup, flushDisk, loadLine, mbps, median, MiB, requireTool, runTimed, writeRandomFile } from './references.js';

const TOTAL = Number(process.env.HAUL_BENCH_ZIP_MB ?? 1024) * MiB;
const SMALL = Number(process.env.HAUL_BENCH_ZIP_FILES ?? 1000);
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const BIG = 4;
const ZIP = '/usr/bin/zip';
const CURL = '/usr/bin/curl';
const TIME = '/usr/bin/time';
const mb = (n: number) => `${(n / MiB).toFixed(0)} MB`;
const secs = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');

/**
 * Runs a command with its standard output going to `sink` (opened here, truncated), in `cwd`: wall seconds, and the
 * command's own CPU seconds through GNU time (NaN without it).
 */
function toSink(cmd: string, args: string[], sink: string, cwd: string): Promise<{ seconds: number; cpu: number }> {
  const cpuFile = existsSync(TIME) ? join(tmpdir(), `haul-bench-zip-time-${process.pid}`) : null;
  const [bin, argv] = cpuFile ? [TIME, ['-f', '%U %S', '-o', cpuFile, cmd, ...args]] : [cmd, args];
  const fd = openSync(sink, 'w');
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(bin, argv, { cwd, stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      closeSync(fd);
      let cpu = NaN;
      if (cpuFile) {
        const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
        cpu = user! + sys!;
        rmSync(cpuFile, { force: true });
      }
      if (code === 0) resolve({ seconds, cpu });
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

const cleanup = new Cleanup();
try {
  for (const [tool, pkg] of [[ZIP, 'zip'], ['/usr/bin/unzip', 'unzip'], [CURL, 'curl']] as const) requireTool(tool, pkg);
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-zip-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));

  // The set on disk: set/small/file-NNNN.bin (sizes spread over 1-64 KiB) and set/big-N.bin sharing the rest.
  const set = join(work, 'set');
  mkdirSync(join(set, 'small'), { recursive: true });
  const smallSizes = Array.from({ length: SMALL }, (_, i) => 1024 + ((i * 7919) % 63) * 1024 + (i % 1000));
  const smallBytes = smallSizes.reduce((a, b) => a + b, 0);
  const bigSize = Math.floor((TOTAL - smallBytes) / BIG);
  smallSizes.forEach((size, i) => writeFileSync(join(set, 'small', `file-${String(i).padStart(4, '0')}.bin`), randomBytes(size)));
  for (let i = 0; i < BIG; i++) await writeRandomFile(join(set, `big-${i}.bin`), bigSize);
  const totalBytes = smallBytes + BIG * bigSize;
  console.log(`${SMALL} files of 1-64 KiB (${mb(smallBytes)}) and ${BIG} of ${mb(bigSize)}: ${mb(totalBytes)} of random bytes; ${loadLine()}`);

  // The same set in the drive, through WebDAV (how it gets there is not measured).
  const haul = await startHaulProcess();
  cleanup.add(() => haul.stop());
  const { client } = await signUpClient(haul.base, 'bench-zip@example.com');
  const me = await client.call('getMe');
  // signUpClient's password; making an app password takes a sudo token.
  const { sudo_token } = await client.call('grantSudo', { body: { password: 'bench password 1' } });
  const made = await client.call('createAppPassword', { body: { name: 'bench', sudo_token } });
  const auth = `Basic ${Buffer.from(`${me.email}:${made.password}`).toString('base64')}`;
  const dav = async (method: string, path: string, body?: Buffer) => {
    const res = await fetch(`${haul.base}/dav/${path}`, { method, headers: { authorization: auth }, body });
    if (res.status >= 300) throw new Error(`${method} /dav/${path}: ${res.status} ${await res.text()}`);
  };
  await dav('MKCOL', 'set');
  await dav('MKCOL', 'set/small');
  const names = smallSizes.map((_, i) => `file-${String(i).padStart(4, '0')}.bin`);
  for (let i = 0; i < names.length; i += 8) {
    await Promise.all(names.slice(i, i + 8).map(async (n) => dav('PUT', `set/small/${n}`, await readFile(join(set, 'small', n)))));
  }
  for (let i = 0; i < BIG; i++) await runTimed(CURL, ['-sfS', '-T', join(set, `big-${i}.bin`), '-H', `authorization: ${auth}`, `${haul.base}/dav/set/big-${i}.bin`]);
  const top = await client.call('listFiles', { query: { parent_id: '' } });
  const setId = top.files.find((f) => f.name === 'set')?.id;
  if (!setId) throw new Error('the folder "set" is not in the drive');

  // What the uploads set off in Haul's process (media probes, thumbnails, hashing) is let finish first: its CPU
  // would otherwise be counted in the first rounds. Settled: under 0.1 CPU s in a second, or a minute gone.
  const settle0 = performance.now();
  for (let cpu = cpuSecondsOf(haul.pid); performance.now() - settle0 < 60_000; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuSecondsOf(haul.pid);
    if (now - cpu < 0.1) break;
    cpu = now;
  }
  console.log(`Haul idle ${((performance.now() - settle0) / 1000).toFixed(0)} s after the uploads`);

  const haulZip = async (sink: string) => {
    const t0 = performance.now();
    const { url } = await client.call('createZipLink', { body: { ids: [setId] } });
    const r = await toSink(CURL, ['-sfS', url], sink, work);
    return { seconds: (performance.now() - t0) / 1000, cpu: r.cpu };
  };
  const refZip = (sink: string) => toSink(ZIP, ['-0', '-r', '-q', '-', 'set'], sink, work);

  // Once: Haul's zip is sound, and holds what zip's holds.
  const check = join(work, 'check-haul.zip');
  const checkRef = join(work, 'check-ref.zip');
  await haulZip(check);
  await refZip(checkRef);
  await runTimed('/usr/bin/unzip', ['-tq', check]);
  const entries = async (f: string) => (await runTimed('/usr/bin/unzip', ['-Z1', f])).stdout.trim().split('\n').sort();
  const [got, want] = [await entries(check), await entries(checkRef)];
  if (got.join('\n') !== want.join('\n')) throw new Error(`Haul's zip has ${got.length} entries, zip's ${want.length}, or other names`);
  console.log(`Haul's zip: unzip -tq passes, ${got.length} entries as zip's; ${mb(statSync(check).size)} (zip's ${mb(statSync(checkRef).size)})`);
  rmSync(check);
  rmSync(checkRef);

  const sinks = [
    ['/dev/null', '/dev/null'],
    ['a file on the same disk', join(work, 'out.zip')],
  ] as const;
  const rss = sampleRss(haul.pid);
  const results: { label: string; haul: number[]; ref: number[]; haulCpu: number[]; curlCpu: number[]; refCpu: number[] }[] = [];
  for (const [label, sink] of sinks) {
    const r = { label, haul: [] as number[], ref: [] as number[], haulCpu: [] as number[], curlCpu: [] as number[], refCpu: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      flushDisk();
      const cpu0 = cpuSecondsOf(haul.pid);
      const h = await haulZip(sink);
      r.haul.push(h.seconds);
      r.haulCpu.push(cpuSecondsOf(haul.pid) - cpu0);
      r.curlCpu.push(h.cpu);
      flushDisk();
      const z = await refZip(sink);
      r.ref.push(z.seconds);
      r.refCpu.push(z.cpu);
    }
    results.push(r);
  }
  const mem = rss.stop();

  console.log(`\nzipping a folder of ${SMALL + BIG} files, ${mb(totalBytes)}`);
  for (const r of results) {
    const h = median(r.haul);
    const z = median(r.ref);
    console.log(`  sink: ${r.label}`);
    console.log(`    Haul (files:zip link, curl reads the body): median ${h.toFixed(2)} s ${mbps(totalBytes, h)}   rounds: ${secs(r.haul)} s`);
    console.log(`      CPU a round: Haul ${secs(r.haulCpu)} s, curl ${secs(r.curlCpu)} s`);
    console.log(`    zip -0 -r - set:                              median ${z.toFixed(2)} s ${mbps(totalBytes, z)}   rounds: ${secs(r.ref)} s`);
    console.log(`      CPU a round: zip ${secs(r.refCpu)} s`);
    console.log(`    zip/Haul: ${(z / h).toFixed(2)}   (aim >= 0.9)`);
  }
  console.log(`  Haul process RSS: ${mb(mem.before)} before, peak ${mb(mem.peak)}${mem.hwm ? `, ${mb(mem.hwm)} VmHWM` : ''}`);
  console.log(loadLine());
} finally {
  await cleanup.run();
}
