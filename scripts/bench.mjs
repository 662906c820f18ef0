// Runs every benchmark in bench/ one after another (they are timing-sensitive: never in parallel).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== bench/${f} ===`);
  const r = spawnSync('node', ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
