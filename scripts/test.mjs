// Runs every test: shared rules and server on SQLite, the server again on PostgreSQL, the web app, and the browser tests.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startPgCluster } from './pg-cluster.mjs';

const results = [];
function step(name, cmd, args, env = {}) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  results.push({ name, ok: r.status === 0 });
  return r.status === 0;
}

const vitest = ['vitest', 'run'];
// The contract's types reach the server, the web app, the client and the command line: the compiler checks them all.
step('typecheck', 'npm', ['run', 'typecheck']);
step('shared rules', 'npx', [...vitest, '--root', 'packages/shared']);
step('server on SQLite', 'npx', [...vitest, '--root', 'apps/server'], { HAUL_TEST_DATABASE_URL: '' });

let pg = null;
let pgUrl = process.env.HAUL_TEST_DATABASE_URL;
try {
  if (!pgUrl) {
    pg = await startPgCluster();
    pgUrl = pg.url;
  }
  step('server on PostgreSQL', 'npx', [...vitest, '--root', 'apps/server'], { HAUL_TEST_DATABASE_URL: pgUrl });
} catch (err) {
  console.error(`\n${err.message}`);
  results.push({ name: 'server on PostgreSQL', ok: false });
} finally {
  pg?.stop();
}

// The command line against a real server process (on SQLite: what it tests does not depend on the database).
step('command line', 'npx', [...vitest, '--root', 'apps/cli'], { HAUL_TEST_DATABASE_URL: '' });
if (existsSync('apps/web/package.json')) step('web app', 'npm', ['test', '-w', '@haul/web']);
if (existsSync('e2e/vitest.config.ts')) {
  if (step('web build', 'npm', ['run', 'build', '-w', '@haul/web'])) {
    step('browser (Chromium)', 'npx', ['vitest', 'run', '--config', 'e2e/vitest.config.ts']);
  }
}

const failed = results.filter((r) => !r.ok);
console.log('\n=== summary ===');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}`);
console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
