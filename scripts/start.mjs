// Starts Haul (`npm start [-- serve|worker]`): builds the web app and the browser extension when they have not been
// built yet, builds the server when its source changed since the last build (scripts/build-server.mjs), then runs it
// with plain node.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules')) {
  console.error('Dependencies are missing: run "npm install" first.');
  process.exit(1);
}
// A worker serves no pages: it needs no web build.
const role = process.argv[2] ?? process.env.HAUL_ROLE ?? 'all';
if (role !== 'worker' && existsSync('apps/web/package.json') && !existsSync('apps/web/dist/index.html')) {
  console.log('Building the web app (first start only)…');
  const built = spawnSync('npm', ['run', 'build', '-w', '@haul/web'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// The install page (/drive/extension) offers the browser extension's zips: built once, in about a second.
if (role !== 'worker' && existsSync('apps/extension/package.json') && !existsSync('apps/extension/zip/haul-extension-chromium.zip')) {
  const built = spawnSync('npm', ['run', 'build', '-w', '@haul/extension'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const { buildServer, SERVER_DIST, SERVER_ENV } = await import('./build-server.mjs');
await buildServer({ ifStale: true });
const env = { ...SERVER_ENV, ...process.env };
const server = spawn(process.execPath, [`${SERVER_DIST}/main.js`, ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
