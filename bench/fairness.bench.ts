/**
 * One account against another: a greedy client (150 autocannon connections paging its folder as fast as answers
 * come) and a quiet one (one listing at a time, every 50 ms, as a person clicking through folders, in a process of its
 * own), for HAUL_BENCH_LOAD_SECONDS (15) on SQLite. Prints the quiet account's p50/p99 on an idle server and beside the
 * greedy one, and the greedy one's pages a second. `HAUL_BENCH_FAIRNESS_ENV='{"NAME":"value"}'` adds settings to
 * Haul's environment.
 */
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/database.js';
import { pct, seedFolder, signUpClient } from './fixtures.js';
import { startHaulProcess } from './haul-process.js';
import { hammer, SECONDS, type Req } from './load-clients.js';
import { Cleanup, loadLine } from './references.js';

const FILES = 2000;
const PAGE = 100;
const GREEDY_CONNECTIONS = 150;

/**
 * One page after another, `every` ms apart, for `seconds`: each page's time in ms. In a process of its own, so that
 * the greedy client's answers (autocannon, in this process) do not delay the quiet one's.
 */
async function quietClient(pages: (Req & { base: string })[], seconds: number, every = 50): Promise<number[]> {
  const script = `
    const pages = JSON.parse(process.argv[1]); const times = []; const end = performance.now() + ${seconds * 1000};
    for (let k = 0; performance.now() < end; k++) {
      const q = pages[k % pages.length]; const t = performance.now();
      const res = await fetch(q.base + q.path, { headers: q.headers }); await res.arrayBuffer();
      if (!res.ok) throw new Error('quiet client: ' + res.status);
      times.push(performance.now() - t); await new Promise((r) => setTimeout(r, ${every}));
    }
    process.stdout.write(JSON.stringify(times));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(pages)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  const code = await new Promise((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`quiet client exited with ${code}`);
  return JSON.parse(out) as number[];
}

async function pagesOf(base: string, token: string, folder: string): Promise<(Req & { base: string })[]> {
  const headers = { authorization: `Bearer ${token}` };
  const first = `/drive/v1/files?parent_id=${folder}&limit=${PAGE}`;
  const out: (Req & { base: string })[] = [];
  let next = '';
  do {
    const path = next ? `${first}&page_token=${encodeURIComponent(next)}` : first;
    out.push({ base, path, headers });
    next = ((await (await fetch(base + path, { headers })).json()) as { next_page_token: string }).next_page_token;
  } while (next);
  return out;
}

async function run(label: string, env: Record<string, string>, cleanup: Cleanup): Promise<void> {
  const haul = await startHaulProcess(env);
  cleanup.add(() => haul.stop());
  const greedy = await signUpClient(haul.base, 'greedy@example.com');
  const quiet = await signUpClient(haul.base, 'quiet@example.com');
  const { db } = await openDatabase({ databaseUrl: null, dataDir: haul.dataDir });
  const greedyFolder = await seedFolder(db, greedy.tokens.sub, 'Big', FILES);
  const quietFolder = await seedFolder(db, quiet.tokens.sub, 'Big', FILES);
  await sql`ANALYZE`.execute(db);
  await db.destroy();
  const greedyPages = await pagesOf(haul.base, greedy.tokens.access_token, greedyFolder);
  const quietPages = await pagesOf(haul.base, quiet.tokens.access_token, quietFolder);

  const idle = await quietClient(quietPages, 3);
  console.log(`\n${label}  (${loadLine()})`);
  const [flood, busy] = await Promise.all([hammer(haul.base, greedyPages, GREEDY_CONNECTIONS), quietClient(quietPages, SECONDS)]);
  const f = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms`;
  console.log(`  quiet account, server idle:             ${f(idle)}  (${idle.length} pages)`);
  console.log(`  quiet account, beside the greedy one:   ${f(busy)}  (${busy.length} pages)`);
  if (process.env.HAUL_BENCH_FAIRNESS_TIMES) console.log(`  each page, ms: ${busy.map((t) => t.toFixed(0)).join(" ")}`);
  const bad = Object.entries(flood.bad).map(([k, v]) => `${k}: ${v}`).join(', ');
  console.log(`  greedy account, ${GREEDY_CONNECTIONS} connections:       ${(flood.count / flood.seconds).toFixed(0)} pages/s  ${f(flood.times)}${bad ? `  not 2xx: ${bad}` : ''}`);
  await haul.stop();
}

const cleanup = new Cleanup();
try {
  const env = JSON.parse(process.env.HAUL_BENCH_FAIRNESS_ENV ?? '{}') as Record<string, string>;
  await run(`SQLite, a greedy and a quiet account${Object.keys(env).length ? ` (${JSON.stringify(env)})` : ''}`, env, cleanup);
} finally {
  await cleanup.run();
}
