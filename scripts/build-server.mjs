// Builds the server into apps/server/dist: one ES module per entry (main.js, the server; admin.js, haul-admin) holding
// its source and the shared package (esbuild, under two seconds), with the packages in node_modules left as imports,
// and the threads' own .mjs files beside them (they are started by URL relative to the module that starts them).
// Running the bundle with plain node spares the TypeScript loader: ~65 MB less memory at all times and a faster start.
//
// `npm start` runs this before every start, and the server's tests before theirs, so the bundle is never older than
// the source; with `ifStale` a build newer than every source file is kept. A new build is made beside the old one and
// swapped in, so a server already running from the old one keeps its files.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const repo = new URL('../', import.meta.url).pathname;
const server = join(repo, 'apps/server');
export const SERVER_DIST = join(server, 'dist');
/**
 * The environment the bundle runs in as `npm start` starts it (the Dockerfile sets the same): two malloc arenas instead
 * of glibc's eight a core, ~10 MB less resident at all times for the same speed (bench/README.md, torrent.bench.ts).
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };
/** Where the bundle's inputs are: a change to any file in them makes a new build. */
const SOURCES = [join(server, 'src'), join(repo, 'packages/shared/src'), new URL(import.meta.url).pathname];
const STAMP = '.built-from';

/** Every package import stays an import, except the workspace's own packages (TypeScript source: bundled). */
const nodeModulesExternal = {
  name: 'node-modules-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@haul/') ? undefined : { path: args.path, external: true }));
  },
};

/** The newest modification time among the sources, in ms. */
function newestSource() {
  let newest = 0;
  const walk = (p) => {
    const s = statSync(p);
    if (s.isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
    else newest = Math.max(newest, s.mtimeMs);
  };
  for (const p of SOURCES) walk(p);
  return newest;
}

function isCurrent(newest) {
  try {
    return Number(readFileSync(join(SERVER_DIST, STAMP), 'utf8')) >= newest;
  } catch {
    return false;
  }
}

/** Builds apps/server/dist (or keeps it, with `ifStale`, when it is current); resolves with whether it built. */
export async function buildServer({ ifStale = false, quiet = false } = {}) {
  const newest = newestSource();
  if (ifStale && isCurrent(newest)) return false;
  const started = Date.now();
  const next = `${SERVER_DIST}.${process.pid}.next`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  try {
    await build({
      entryPoints: { main: join(server, 'src/main.ts'), admin: join(server, 'src/cli/admin.ts') },
      outdir: next,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Names stay as written, so stack traces read like the source; the map is there for a debugger.
      sourcemap: 'linked',
      plugins: [nodeModulesExternal],
      logLevel: 'error',
    });
    // No shared chunks: a path relative to import.meta.url (the web app's folder, a thread) resolves alike from each.
    for (const dir of ['offline', 'storage']) {
      for (const f of readdirSync(join(server, 'src', dir))) if (f.endsWith('.mjs')) copyFileSync(join(server, 'src', dir, f), join(next, f));
    }
    writeFileSync(join(next, STAMP), String(newest));
    const old = `${SERVER_DIST}.${process.pid}.old`;
    if (existsSync(SERVER_DIST)) renameSync(SERVER_DIST, old);
    try {
      renameSync(next, SERVER_DIST);
    } catch (err) {
      // A build running beside this one swapped its own in first: as good as ours when it is as new.
      if (!isCurrent(newest)) throw err;
    }
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
  if (!quiet) console.log(`Built the server in ${Date.now() - started} ms.`);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer({ ifStale: process.argv.includes('--if-stale') });
