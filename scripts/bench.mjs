// Runs every benchmark in bench/ one after another (they are timing-sensitive: never in parallel).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const all = readdirSync('bench').filter((f) => f.endsWith('.bench.ts'));
// An exact name runs that benchmark alone ("load" is not also "upload"); otherwise every name containing it.
const files = (all.includes(`${only}.bench.ts`) ? [`${only}.bench.ts`] : all.filter((f) => !only || f.includes(only))).sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== bench/${f} ===`);
  const r = spawnSync('node', ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
