#!/usr/bin/env node
// The haul command: its bundle (dist/, made by scripts/build.mjs at `npm install`) run with plain node when it was
// built from the sources as they are now; else the TypeScript source through tsx (a fresh edit, or no bundle yet).
// HAUL_CLI_FROM=source or =bundle picks one (=bundle fails rather than fall back: the tests check the bundle so).
import { readFileSync, statSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const repo = new URL('../../../', import.meta.url);
const from = process.env.HAUL_CLI_FROM;

/** The bundle's entry when it is current: no file it was built from changed since (a stat of each, ~1 ms). */
function bundleEntry() {
  let built;
  try {
    built = JSON.parse(readFileSync(new URL('current.json', dist), 'utf8'));
    for (const p of built.inputs) if (statSync(new URL(p, repo)).mtimeMs > built.builtFrom) return null;
  } catch {
    return null;
  }
  return new URL(built.entry, dist).href;
}

const entry = from === 'source' ? null : bundleEntry();
if (!entry && from === 'bundle') {
  process.stderr.write('haul: no current bundle in apps/cli/dist: run `npm run build -w @haul/cli`.\n');
  process.exit(1);
}
let main;
if (entry) ({ main } = await import(entry));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
