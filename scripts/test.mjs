// Runs every test: shared rules and server on SQLite, the server again on PostgreSQL, the web app, and the browser tests.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPgCluster } from './pg-cluster.mjs';

/** The test S3 server (apps/server/test/s3-server.ts) in a process of its own: its address, and how to stop it. */
function startTestS3() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/s3-server.ts'], { cwd: 'apps/server', stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ endpoint: JSON.parse(line).endpoint, stop: () => child.stdin.end() });
    });
    child.once('exit', (code) => reject(new Error(`the test S3 server did not start (exit ${code})`)));
  });
}

const results = [];
// Each vitest step also writes a JSON report, so the summary at the very end names every failed test and its error
// (a CI log is often read from its tail).
const reports = mkdtempSync(join(tmpdir(), 'haul-test-reports-'));
function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const report = join(reports, `${results.length}.json`);
  const withReport = args[1] === 'run' ? [...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`] : args;
  const started = Date.now();
  const r = spawnSync(cmd, withReport, { stdio: 'inherit', env: { ...process.env, ...env } });
  results.push({ name, ok: r.status === 0, report, seconds: Math.round((Date.now() - started) / 1000) });
  return r.status === 0;
}

/** An error's first three lines, indented under the name they belong to. */
const firstLines = (message = '') => message.split('\n').slice(0, 3).join('\n    ');

/** The failed tests of a step's JSON report, a line each: file, test, the error's first lines. */
function failuresOf(report) {
  if (!existsSync(report)) return [];
  const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
  return testResults.flatMap((file) => {
    const where = file.name.replace(`${process.cwd()}/`, '');
    const failed = file.assertionResults.filter((t) => t.status === 'failed');
    const lines = failed.map((t) => `  ${where} > ${t.fullName}\n    ${firstLines(t.failureMessages[0])}`);
    // A file that failed outside its tests (an import, a hook).
    if (!failed.length && file.status === 'failed') lines.push(`  ${where}\n    ${firstLines(file.message)}`);
    return lines;
  });
}

const vitest = ['vitest', 'run'];
// The contract's types reach the server, the web app, the client and the command line: the compiler checks them all.
step('typecheck', 'npm', ['run', 'typecheck']);
// The linter: layers, cycles, promises, hooks (eslint.config.mjs); zero findings, warnings included.
step('lint', 'npm', ['run', 'lint']);
step('shared rules', 'npx', [...vitest, '--root', 'packages/shared']);
// The client package's own tests (hashing a Blob with reads ahead).
step('client package', 'npx', [...vitest, '--root', 'packages/client']);
// multi-process.test.ts starts API and worker processes on one PostgreSQL: it runs in the PostgreSQL pass only. The
// store's own tests (s3-*) run once, in the S3 pass below, against the run's one S3 server.
const S3_ONLY = ['--exclude', 'test/s3-*.test.ts'];
// Files whose time goes to work that does not depend on the database, and whose queries other files run on both,
// run in the SQLite pass only: zip64 and zip-download move GiBs through a zip (streaming, 7-Zip), accel-redirect puts
// nginx and Caddy in front of the server, torrent-guard waits out windows in which peers must not be reached (its one
// task row is what offline.test.ts makes), webdav-rclone-sync is rclone's 500 uploads (the WebDAV queries run in the
// webdav*.test.ts files on both), openapi-texts writes the API document.
const SQLITE_ONLY = ['zip64', 'zip-download', 'accel-redirect', 'torrent-guard', 'webdav-rclone-sync', 'openapi-texts'].flatMap((t) => [
  '--exclude',
  `test/${t}.test.ts`,
]);
// The kill -9 soak restarts a server five times under six transfers: beside another heavy file on PostgreSQL its
// restarts took so long that it failed twice in full passes (never alone), so there it runs on its own.
const SOAK = 'test/crash-soak.test.ts';
step('server on SQLite', 'npx', [...vitest, '--root', 'apps/server', '--exclude', 'test/multi-process.test.ts', ...S3_ONLY], { HAUL_TEST_DATABASE_URL: '' });

let pg = null;
let pgUrl = process.env.HAUL_TEST_DATABASE_URL;
try {
  if (!pgUrl) {
    pg = await startPgCluster();
    pgUrl = pg.url;
  }
  step('server on PostgreSQL', 'npx', [...vitest, '--root', 'apps/server', ...SQLITE_ONLY, ...S3_ONLY, '--exclude', SOAK], { HAUL_TEST_DATABASE_URL: pgUrl });
  step('kill -9 soak on PostgreSQL (alone)', 'npx', [...vitest, '--root', 'apps/server', SOAK], { HAUL_TEST_DATABASE_URL: pgUrl });
} catch (err) {
  console.error(`\n${err.message}`);
  results.push({ name: 'server on PostgreSQL', ok: false, error: err.message });
} finally {
  pg?.stop();
}

// The tests that move bytes, again with every blob in S3 (a Swift server with its S3 layer on loopback, started once
// for the run). Tests ask the store whether it holds a blob (test/helper.ts blobExists, storedBlobs), so the same files
// run on both; a test about the local folder itself starts a local store of its own. Left out: the ones whose bytes
// never reach the store.
const S3_TESTS = [
  's3-blob-store', 's3-presigned-downloads', 's3-reconcile', 'uploads', 'downloads', 'quotas', 'archives', 'archives-jobs', 'archives-rar',
  'media', 'offline', 'offline-quota', 'uploads-race', 'traffic', 'files', 'purge', 'shares', 's3-uploads', 'webdav', 'webdav-props-locks',
  'webdav-clients', 'tus-patch-body', 'lazy-modules', 's3-content-key', 's3-kill',
].map((t) => `test/${t}.test.ts`);
let s3 = null;
try {
  s3 = await startTestS3();
  step('server on S3 (SQLite)', 'npx', [...vitest, '--root', 'apps/server', ...S3_TESTS], { HAUL_TEST_DATABASE_URL: '', HAUL_TEST_BLOB_STORE: 's3', HAUL_TEST_S3_ENDPOINT: s3.endpoint });
} catch (err) {
  console.error(`\n${err.message}`);
  results.push({ name: 'server on S3 (SQLite)', ok: false, error: err.message });
} finally {
  s3?.stop();
}

// The command line against a real server process (on SQLite: what it tests does not depend on the database).
step('command line', 'npx', [...vitest, '--root', 'apps/cli'], { HAUL_TEST_DATABASE_URL: '' });
if (existsSync('apps/web/package.json')) step('web app', 'npm', ['test', '-w', '@haul/web']);
step('browser extension', 'npx', [...vitest, '--root', 'apps/extension']);
if (existsSync('e2e/vitest.config.ts')) {
  if (step('web build', 'npm', ['run', 'build', '-w', '@haul/web'])) {
    step('browser (Chromium)', 'npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts']);
  }
}

const failed = results.filter((r) => !r.ok);
console.log('\n=== summary ===');
for (const r of results) {
  // Each step's time, so a slow run shows where its time went.
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.seconds === undefined ? '' : ` (${r.seconds} s)`}`);
  if (r.error) console.log(`  ${r.error}`);
  if (!r.ok && r.report) for (const line of failuresOf(r.report)) console.log(line);
}
console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
rmSync(reports, { recursive: true, force: true });
process.exit(failed.length ? 1 : 0);
