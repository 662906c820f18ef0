// Builds the unpacked extension: dist/ for Chromium and dist-firefox/ for Firefox, from the same sources, and a zip of
// each in zip/ (what Haul's install page offers). esbuild bundles the worker, the two pages (with the typed API
// client) and the content script as plain scripts; the pages, styles, icons, _locales and the manifest are written
// beside them. `--watch` rebuilds on change (no zips).
import { cpSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { iconPng } from './icons.mjs';
import { manifest } from './manifest.mjs';
import { zipFolder } from './zip.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const TARGETS = { chromium: { dir: 'dist', target: 'chrome120' }, firefox: { dir: 'dist-firefox', target: 'firefox140' } };
const ENTRIES = {
  background: 'src/background/service-worker.ts',
  popup: 'src/popup/popup.ts',
  options: 'src/options/options.ts',
  'magnet-clicks': 'src/content/magnet-clicks.ts',
};
/** Where the zips go, named as the server offers them (/drive/extension/haul-extension-<browser>.zip). */
const ZIP_DIR = join(root, 'zip');
const PAGES = ['src/popup/popup.html', 'src/popup/popup.css', 'src/options/options.html', 'src/options/options.css', 'src/pages.css'];

/** @param {'chromium' | 'firefox'} browser */
function buildOptions(browser) {
  const out = join(root, TARGETS[browser].dir);
  return {
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(root, file)])),
    outdir: out,
    bundle: true,
    // Classic scripts: a Chromium service worker and a Firefox event page both load them without "type": "module".
    format: 'iife',
    target: TARGETS[browser].target,
    // Readable output: store reviewers read it, and it is small either way.
    minify: false,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  };
}

function writeStatic(browser) {
  const out = join(root, TARGETS[browser].dir);
  mkdirSync(join(out, 'icons'), { recursive: true });
  for (const page of PAGES) copyFileSync(join(root, page), join(out, page.split('/').pop()));
  for (const size of [16, 32, 48, 128]) writeFileSync(join(out, 'icons', `${size}.png`), iconPng(size));
  cpSync(join(root, '_locales'), join(out, '_locales'), { recursive: true });
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest(browser, version), null, 2)}\n`);
}

const watch = process.argv.includes('--watch');
for (const browser of /** @type {const} */ (['chromium', 'firefox'])) {
  rmSync(join(root, TARGETS[browser].dir), { recursive: true, force: true });
  writeStatic(browser);
  if (watch) await (await esbuild.context(buildOptions(browser))).watch();
  else {
    const { metafile } = await esbuild.build(buildOptions(browser));
    const bytes = Object.values(metafile.outputs).reduce((n, o) => n + o.bytes, 0);
    mkdirSync(ZIP_DIR, { recursive: true });
    const zipped = await zipFolder(join(root, TARGETS[browser].dir), join(ZIP_DIR, `haul-extension-${browser}.zip`));
    console.log(`${TARGETS[browser].dir}/: ${Object.keys(metafile.outputs).length} scripts, ${(bytes / 1024).toFixed(1)} KiB; zip ${(zipped / 1024).toFixed(1)} KiB`);
  }
}
