// Builds the haul command into apps/cli/dist: one ES module entry holding the command line, the workspace packages and
// its dependencies, with each command (and the heavy libraries only some commands use) in chunks loaded when that
// command runs. Plain node runs it, without the TypeScript loader: ~0.1 s a start instead of ~0.5 s (bench/README.md).
//
// `npm install` runs this (postinstall: buildAtInstall, skipped where only package.json is there yet, as in the
// Dockerfile's dependency layer), and the command line's tests and benchmark before theirs, with `ifStale`.
// bin/haul.mjs runs the bundle only when dist/current.json says it was built from the sources as they are now; else
// it runs the source through tsx, so an edit takes effect at once and a failed build never leaves a broken command.
// File names carry a content hash and a new build only adds files, then points current.json at its entry: a command
// running from an older build still finds the chunks it loads later. Files no build has used for a day are removed.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const repo = new URL('../../../', import.meta.url).pathname;
export const CLI_DIST = new URL('../dist/', import.meta.url).pathname;
const CURRENT = join(CLI_DIST, 'current.json');
const KEEP_UNUSED_MS = 24 * 3600 * 1000;

/** The newest modification time of the files a build read (repo-relative paths); Infinity when one is gone. */
export function newestInput(inputs) {
  let newest = 0;
  for (const p of inputs) {
    try {
      newest = Math.max(newest, statSync(join(repo, p)).mtimeMs);
    } catch {
      return Infinity;
    }
  }
  return newest;
}

function currentBuild() {
  try {
    return JSON.parse(readFileSync(CURRENT, 'utf8'));
  } catch {
    return null;
  }
}

/** Writes a file whole under a temporary name, then renames it into place (readers never see half of it). */
function writeWhole(path, contents) {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

/** Builds apps/cli/dist (or keeps it, with `ifStale`, when it is current); resolves with whether it built. */
export async function buildCli({ ifStale = false, quiet = false } = {}) {
  const before = currentBuild();
  if (ifStale && before && existsSync(join(CLI_DIST, before.entry)) && newestInput(before.inputs) <= before.builtFrom) return false;
  const started = Date.now();
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: repo,
    entryPoints: { haul: join(repo, 'apps/cli/src/main.ts') },
    outdir: CLI_DIST,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // ES module builds first: hash-wasm's ESM build keeps only BLAKE3 (its UMD build holds every algorithm).
    mainFields: ['module', 'main'],
    // Bundled CommonJS packages (qrcode, tus-js-client) call require() for Node's own modules.
    banner: { js: "import { createRequire as __haulRequire } from 'node:module'; const require = __haulRequire(import.meta.url);" },
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  mkdirSync(CLI_DIST, { recursive: true });
  const made = new Set();
  for (const f of result.outputFiles) {
    made.add(relative(CLI_DIST, f.path));
    // A name holds its content's hash: a file already there is this same file, and may be in use.
    if (!existsSync(f.path)) {
      mkdirSync(dirname(f.path), { recursive: true });
      writeWhole(f.path, f.contents);
    }
  }
  const [entry] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === 'apps/cli/src/main.ts');
  const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/'));
  inputs.push(relative(repo, new URL(import.meta.url).pathname));
  // No later than the build's start: a file edited while it ran is newer, and the next start sees the bundle as stale.
  const builtFrom = Math.min(newestInput(inputs), started);
  writeWhole(CURRENT, `${JSON.stringify({ entry: relative(CLI_DIST, join(repo, entry)), builtFrom, inputs }, null, 1)}\n`);
  const now = Date.now();
  for (const f of readdirSync(CLI_DIST)) {
    const p = join(CLI_DIST, f);
    if (f !== 'current.json' && !made.has(f) && now - statSync(p).mtimeMs > KEEP_UNUSED_MS) rmSync(p, { recursive: true, force: true });
  }
  if (!quiet) console.log(`Built the haul command in ${Date.now() - started} ms.`);
  return true;
}

/**
 * `npm install`'s build (the workspace's postinstall): when stale, quietly; a failure only warns, as the command then
 * runs from source and the install must not fail for it.
 */
export async function buildAtInstall() {
  try {
    await buildCli({ ifStale: true, quiet: true });
  } catch (err) {
    console.warn(`haul: the command line was not bundled (${err.message}); it runs from source through tsx.`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await buildCli({ ifStale: process.argv.includes('--if-stale') });
