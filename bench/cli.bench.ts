/**
 * The `haul` command line, measured against references in the same run:
 * - start: `haul --version` and `haul ls` (median of HAUL_BENCH_STARTS, default 10) beside `curl` asking the same
 *   server for the same listing; `haul ls` less curl's time is what the command adds to the request.
 * - transfers: a folder of 200 files (10 KB to 2 MB, 200 MB in all; HAUL_BENCH_CLI_MB) sent with `haul upload` and
 *   read back with `haul get`, beside `rclone copy` into Haul's /dav/ (an app password) and back. Fresh random bytes
 *   each round and side, so no upload is instant. Rounds take turns (HAUL_BENCH_ROUNDS, default 3); medians compared.
 * The command runs as users run it (bin/haul.mjs: the bundle, built first when stale); HAUL_BENCH_CLI_SOURCE=1 runs
 * it from source through tsx instead, for the figures before the bundle.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUpClient } from './fixtures.js';
import { startHaulProcess } from './haul-process.js';
import { Cleanup, flushDisk, loadLine, mbps, median, MiB, requireTool, runTimed, writeRandomFile } from './references.js';

const FILES = 200;
const BYTES = Number(process.env.HAUL_BENCH_CLI_MB ?? 200) * MiB;
const ROUNDS = Math.max(1, Number(process.env.HAUL_BENCH_ROUNDS ?? 3));
const STARTS = Math.max(1, Number(process.env.HAUL_BENCH_STARTS ?? 10));
const FROM_SOURCE = process.env.HAUL_BENCH_CLI_SOURCE === '1';
const RCLONE = '/usr/bin/rclone';
const CURL = '/usr/bin/curl';
const EMAIL = 'bench-cli@example.com';
const PASSWORD = 'bench password 1';
const BIN = new URL('../apps/cli/bin/haul.mjs', import.meta.url).pathname;

/** 200 files of growing sizes (the i-th is i+1 steps) adding up to `total` bytes. */
async function writeFolder(dir: string, total: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const step = Math.floor(total / ((FILES * (FILES + 1)) / 2));
  let left = total;
  for (let i = 0; i < FILES; i++) {
    const size = i === FILES - 1 ? left : step * (i + 1);
    left -= size;
    await writeRandomFile(join(dir, `file-${String(i).padStart(3, '0')}.bin`), size);
  }
}

/** Runs a command to its end with its own environment and standard input: its wall time in seconds; throws on failure. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<{ seconds: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(input);
    child.once('error', reject);
    child.once('exit', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      if (code === 0) resolve({ seconds });
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

const bytesIn = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
const ms = (s: number) => `${(s * 1000).toFixed(0)} ms`;

const cleanup = new Cleanup();
try {
  requireTool(CURL, 'curl');
  requireTool(RCLONE, 'rclone');
  if (!FROM_SOURCE) {
    // @ts-expect-error: a plain ES module of the command line's build, without type declarations.
    const { buildCli } = await import('../apps/cli/scripts/build.mjs');
    await buildCli({ ifStale: true, quiet: true });
  }
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-cli-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  const haul = await startHaulProcess();
  cleanup.add(() => haul.stop());
  const { client, tokens } = await signUpClient(haul.base, EMAIL);
  const { sudo_token } = await client.call('grantSudo', { body: { password: PASSWORD } });
  const made = await client.call('createAppPassword', { body: { name: 'rclone', sudo_token } });
  const obscured = (await runTimed(RCLONE, ['obscure', made.password])).stdout.trim();
  const remote = ['--webdav-url', `${haul.base}/dav/`, '--webdav-vendor', 'other', '--webdav-user', EMAIL, '--webdav-pass', obscured, '--config', '/dev/null', '--retries', '1'];

  const env = { ...process.env, HAUL_CONFIG_DIR: join(work, 'config'), HAUL_SERVER: haul.base, HAUL_CLI_FROM: FROM_SOURCE ? 'source' : 'bundle' };
  const haulCli = (args: string[], input?: string) => timed(process.execPath, [BIN, ...args], env, input);
  await haulCli(['login', '--email', EMAIL, '--password-stdin'], `${PASSWORD}\n`);
  console.log(`haul from ${FROM_SOURCE ? 'source (tsx)' : 'its bundle'}; ${FILES} files, ${(BYTES / MiB).toFixed(0)} MB; ${loadLine()}`);

  // Start: each command alone, one after another, STARTS times.
  const listing = `${haul.base}/drive/v1/files?parent_id=&limit=500&filters=${encodeURIComponent(JSON.stringify({ trashed: { eq: false }, phase: { eq: 'PHASE_TYPE_COMPLETE' } }))}`;
  const start = { version: [] as number[], curlVersion: [] as number[], ls: [] as number[], curlLs: [] as number[] };
  await haulCli(['ls']); // the first one writes nothing new, but warms the disk cache for both sides
  for (let i = 0; i < STARTS; i++) {
    start.version.push((await haulCli(['--version'])).seconds);
    start.curlVersion.push((await runTimed(CURL, ['--version'])).seconds);
    start.ls.push((await haulCli(['ls'])).seconds);
    start.curlLs.push((await runTimed(CURL, ['-sfS', '-o', '/dev/null', '-H', `Authorization: Bearer ${tokens.access_token}`, listing])).seconds);
  }
  const v = median(start.version);
  const ls = median(start.ls);
  const curlLs = median(start.curlLs);
  console.log('start (median of', STARTS, 'runs)');
  console.log(`  haul --version      ${ms(v)}   curl --version ${ms(median(start.curlVersion))}   ratio ${(v / median(start.curlVersion)).toFixed(1)}x`);
  console.log(`  haul ls             ${ms(ls)}   curl of the same listing ${ms(curlLs)}   ratio ${(ls / curlLs).toFixed(1)}x`);
  console.log(`  haul ls less curl:  ${ms(ls - curlLs)}   (aim: start < 200 ms)`);

  // Transfers: haul and rclone take turns, each with fresh bytes.
  const up = { haul: [] as number[], rclone: [] as number[] };
  const down = { haul: [] as number[], rclone: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of ['haul', 'rclone'] as const) {
      const name = `${side}-${round}`;
      const local = join(work, name);
      await writeFolder(local, BYTES);
      flushDisk();
      const sent =
        side === 'haul'
          ? await haulCli(['upload', local, '--to', '/'])
          : await runTimed(RCLONE, ['copy', local, `:webdav:${name}`, ...remote]);
      up[side].push(sent.seconds);
      rmSync(local, { recursive: true, force: true });
      flushDisk();
      const got =
        side === 'haul'
          ? await haulCli(['get', `/${name}`, '-o', local])
          : await runTimed(RCLONE, ['copy', `:webdav:${name}`, local, ...remote]);
      down[side].push(got.seconds);
      if (bytesIn(local) !== BYTES || readdirSync(local).length !== FILES) throw new Error(`${side} read back the wrong files`);
      rmSync(local, { recursive: true, force: true });
    }
  }
  const line = (label: string, xs: number[]) => `  ${label.padEnd(36)} median ${median(xs).toFixed(2)} s ${mbps(BYTES, median(xs))}   rounds: ${xs.map((x) => x.toFixed(2)).join(', ')} s`;
  console.log('upload');
  console.log(line('haul upload', up.haul));
  console.log(line('rclone copy to /dav/', up.rclone));
  console.log(`  haul/rclone (speed): ${(median(up.rclone) / median(up.haul)).toFixed(2)}   (aim >= 0.8)`);
  console.log('download');
  console.log(line('haul get', down.haul));
  console.log(line('rclone copy from /dav/', down.rclone));
  console.log(`  haul/rclone (speed): ${(median(down.rclone) / median(down.haul)).toFixed(2)}   (aim >= 0.8)`);
  console.log(loadLine());
} finally {
  await cleanup.run();
}
