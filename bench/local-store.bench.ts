/**
 * The browser's copy of the drive, side by side: the same work on each candidate local store in Chromium, each in a
 * fresh profile on disk.
 *  (a) "rows (v71)": apps/web/src/features/sync's store at commit 37e296e: one IndexedDB record per file;
 *  (b) "chunks (new)": the same files in the working tree (the same API);
 *  (c) "SQLite (wa-sqlite)": the same API over wa-sqlite in a dedicated worker, kept in IndexedDB (IDBBatchAtomicVFS).
 * The work (bench/local-store/driver.ts): the first sync of the drive (pages of 500, at most two writes in flight, as
 * sync-engine.ts), the store opened again after a reload and a 100-file and the big folder read through readSlice,
 * 1,000 renames, 1,000 moves, 1,000 deletes and 100 stars one at a time, the starred slice, and a sign-out; with the
 * records each keeps and the origin's storage use. Every figure is printed beside (a)'s, as a ratio.
 * HAUL_BENCH_LOCAL_FILES: files in the big folder (default 10,000; the issue's figure is 100,000).
 * HAUL_BENCH_LOCAL_ORIGINS: `secure` (http://127.0.0.1 only), `lan` (http://haul.test, not a secure context, as a
 * server on a LAN address is: no navigator.locks, no OPFS), or both (default).
 * HAUL_BENCH_LOCAL_ONLY: the candidates' letters to run (default `abc`); HAUL_BENCH_LOCAL_PROFILE=1: a CPU profile.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../e2e/harness.js';
import type { Bench } from './local-store/driver.js';

const FILES = Number(process.env.HAUL_BENCH_LOCAL_FILES ?? 10_000);
const ORIGINS = process.env.HAUL_BENCH_LOCAL_ORIGINS ?? 'both';
// The changes take the big folder's first 3,700 files: renames, moves, deletes and stars each their own.
if (!(FILES >= 5000)) throw new Error('HAUL_BENCH_LOCAL_FILES: at least 5000 files');
// HAUL_BENCH_LOCAL_ONLY: some of the candidates (their letters, e.g. `ac`); all by default.
const ONLY = process.env.HAUL_BENCH_LOCAL_ONLY ?? 'abc';
// HAUL_BENCH_LOCAL_PROFILE=1: a CPU profile of the page over the changes (phase 3), its heaviest functions printed.
const PROFILE = process.env.HAUL_BENCH_LOCAL_PROFILE === '1';
const ROOT = resolve(import.meta.dirname, '..');
const HERE = join(ROOT, 'bench/local-store');
const COMMIT = '37e296e';
const SYNC_FILES = ['local-db', 'local-files', 'stored-row'];

const work = mkdtempSync(join(tmpdir(), 'haul-local-store-'));
const out = join(work, 'site');
mkdirSync(out);

/** `#store/x` imports of the IndexedDB page, resolved to one candidate's copy of the sync folder. */
const storeAt = (dir: string): Plugin => ({
  name: 'store',
  setup(b) {
    b.onResolve({ filter: /^#store\// }, (a) => ({ path: join(dir, `${a.path.slice('#store/'.length)}.ts`) }));
  },
});
const bundle = (entry: string, file: string, plugins: Plugin[] = []) =>
  build({
    entryPoints: [join(HERE, entry)],
    outfile: join(out, file),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    minify: !PROFILE, // a profile names the functions
    logLevel: 'silent',
    // The commit's files live outside the tree: their packages (idb, @haul/shared) come from the tree's.
    nodePaths: [join(ROOT, 'node_modules'), join(ROOT, 'apps/web/node_modules')],
    plugins,
    metafile: true,
  });

// (a) the commit's three files, as they were.
const v71 = join(work, 'v71');
mkdirSync(v71);
for (const f of SYNC_FILES)
  writeFileSync(join(v71, `${f}.ts`), execFileSync('git', ['show', `${COMMIT}:apps/web/src/features/sync/${f}.ts`], { cwd: ROOT }));

interface Candidate {
  key: string;
  label: string;
  built: string | null;
}
const candidates: Candidate[] = [
  { key: 'a', label: 'rows (v71)', built: null },
  { key: 'b', label: 'chunks (new)', built: null },
  { key: 'c', label: 'SQLite (wa-sqlite)', built: null },
];
const tryBuild = async (c: Candidate, go: () => Promise<unknown>) => {
  try {
    await go();
    writeFileSync(join(out, `${c.key}.html`), `<!doctype html><title>${c.label}</title><script type="module" src="/${c.key}.js"></script>`);
    c.built = 'ok';
  } catch (err) {
    c.built = String((err as Error).message).split('\n').slice(0, 6).join('\n');
    console.log(`${c.label}: not built: ${c.built}`);
  }
};
await tryBuild(candidates[0]!, () => bundle('idb-page.ts', 'a.js', [storeAt(v71)]));
await tryBuild(candidates[1]!, async () => {
  const meta = await bundle('idb-page.ts', 'b.js', [storeAt(join(ROOT, 'apps/web/src/features/sync'))]);
  // Which version of the working tree's files was measured: their sha-256, beside the commit they differ from.
  const sources = Object.keys(meta.metafile.inputs).filter((f) => f.includes('features/sync/')).sort();
  const sum = createHash('sha256');
  for (const f of sources) sum.update(readFileSync(resolve(ROOT, f)));
  console.log(`chunks (new): ${sources.map((f) => f.replace(/.*\//, '')).join(', ')} from the working tree, sha-256 ${sum.digest('hex').slice(0, 12)}`);
});
await tryBuild(candidates[2]!, async () => {
  await bundle('sqlite-page.ts', 'c.js');
  await bundle('sqlite-worker.ts', 'sqlite-worker.js');
});
const WASM = join(ROOT, 'node_modules/@journeyapps/wa-sqlite/dist/wa-sqlite-async.wasm');

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
  const path = name === 'wa-sqlite-async.wasm' ? WASM : join(out, name.replace(/[^\w.-]/g, ''));
  if (!name || !existsSync(path)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  res.end(readFileSync(path));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as { port: number }).port;

type Figures = Awaited<ReturnType<typeof measure>>;
type Phase = Exclude<keyof Bench, 'label'>;

/** One candidate on one origin, in a profile of its own (a fresh database, kept on disk as a person's is). */
async function measure(c: Candidate, origin: string) {
  const profile = mkdtempSync(join(work, `profile-${c.key}-`));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--host-resolver-rules=MAP haul.test 127.0.0.1'],
  });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => console.log(`  [${c.label}] page error: ${e.message}`));
    const load = async () => {
      await page.goto(`${origin}/${c.key}.html`);
      await page.waitForFunction(() => !!(window as unknown as { __bench?: Bench }).__bench, null, { timeout: 30_000 });
    };
    const call = <K extends Phase>(phase: K, ...args: Parameters<Bench[K]>) =>
      page.evaluate(
        ([p, a]) => ((window as unknown as { __bench: Record<string, (...x: unknown[]) => unknown> }).__bench[p as string]!(...(a as unknown[])) as Promise<ReturnType<Bench[K]>>),
        [phase, args] as const,
      ) as Promise<Awaited<ReturnType<Bench[K]>>>;
    // The main thread's busy time (DevTools' TaskDuration, seconds) over a phase: what of the work lands on it.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Performance.enable');
    const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
    const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const b0 = await busy();
      const v = await work();
      return [v, ((await busy()) - b0) * 1000];
    };
    await load();
    const open = await call('open');
    const [sync, syncBusy] = await timed(() => call('firstSync', FILES));
    const stored = await call('records');
    // A later visit: the page loads again and opens the copy it left.
    await load();
    const reopen = await call('open');
    const [folders, readBusy] = await timed(() => call('openFolders', FILES));
    if (PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const [changes, changesBusy] = await timed(() => call('changes', FILES));
    if (PROFILE) printProfile(c.label, (await cdp.send('Profiler.stop')).profile);
    const clear = await call('clear', FILES);
    const after = await call('records');
    return { open, sync, syncBusy, stored, reopen, folders, readBusy, changes, changesBusy, clear, after };
  } finally {
    await ctx.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The functions with the most samples of their own in a CPU profile (where the page's thread spent the phase). */
function printProfile(label: string, profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples?: number[]; timeDeltas?: number[] }) {
  const self = new Map<number, number>();
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
  const byName = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const us = self.get(n.id) ?? 0;
    total += us;
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.replace(/.*\//, '')}:${f.lineNumber + 1}` : ''}`.trim();
    byName.set(name, (byName.get(name) ?? 0) + us);
  }
  console.log(`  ${label}: CPU profile of the changes, ${(total / 1e6).toFixed(1)} s sampled; most self time:`);
  for (const [name, us] of [...byName].sort((x, y) => y[1] - x[1]).slice(0, 15))
    console.log(`    ${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
}

const ms = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)} s` : n >= 100 ? `${n.toFixed(0)} ms` : `${n.toFixed(1)} ms`);
const ratio = (r: number) => `${r < 0.1 ? r.toPrecision(2) : r.toFixed(2)}x`;
const recordsOf = (r: Figures['stored']) => r.idb.reduce((a, s) => a + s.records, 0);
const mb = (n: number | null) => (n === null ? '—' : `${(n / 1024 ** 2).toFixed(1)} MB`);

/** The table: one line per figure, one column per candidate, each beside its ratio to (a). */
function table(results: Map<string, Figures | string>) {
  const lines: [string, (f: Figures) => number | string, boolean][] = [
    ['open, fresh database', (f) => f.open.ms, true],
    [`first sync: ${FILES + 103} rows in pages of 500, stored`, (f) => f.sync.written, true],
    ['  its end (deleteStaleDrive, nothing stale)', (f) => f.sync.staleMs, true],
    ['  first sync in all', (f) => f.sync.total, true],
    ['  longest main-thread task meanwhile', (f) => f.sync.longest, true],
    ['  long tasks (over 50 ms) meanwhile', (f) => f.sync.longTasks, false],
    ['  main thread busy meanwhile', (f) => f.syncBusy, true],
    ['open again after a reload', (f) => f.reopen.ms, true],
    ['100-file folder: first chunk', (f) => f.folders.small.first, true],
    ['100-file folder: whole', (f) => f.folders.small.whole, true],
    [`${FILES}-file folder: first chunk`, (f) => f.folders.big.first, true],
    [`${FILES}-file folder: whole`, (f) => f.folders.big.whole, true],
    ['  longest task while reading it', (f) => f.folders.big.longest, true],
    ['  main thread busy over both reads', (f) => f.readBusy, true],
    ['1,000 renames, one at a time', (f) => f.changes.renames.ms, true],
    ['1,000 moves to another folder', (f) => f.changes.moves.ms, true],
    ['1,000 deletes', (f) => f.changes.deletes.ms, true],
    ['100 stars', (f) => f.changes.stars.ms, true],
    ['the starred slice read (100 rows)', (f) => f.changes.starred.whole, true],
    ['  longest task in these changes', (f) => Math.max(f.changes.renames.longest, f.changes.moves.longest, f.changes.deletes.longest, f.changes.stars.longest), true],
    ['  main thread busy over the changes and checks', (f) => f.changesBusy, true],
    ['sign-out (clearLocalUser)', (f) => f.clear.ms, true],
    ['IndexedDB records after the first sync', (f) => recordsOf(f.stored), false],
    ['origin storage in use (storage.estimate)', (f) => (f.stored.usage === null ? '—' : f.stored.usage), false],
  ];
  const a = results.get('a');
  const width = 52;
  const col = 28;
  console.log(`${''.padEnd(width)}${candidates.map((c) => c.label.padEnd(col)).join('')}`);
  for (const [label, pick, isMs] of lines) {
    const cells = candidates.map((c) => {
      const f = results.get(c.key);
      if (!f || typeof f === 'string') return '—';
      const v = pick(f);
      if (typeof v === 'string') return v;
      const shown = label.includes('storage') ? mb(v) : isMs ? ms(v) : v.toLocaleString('en-US');
      const base = a && typeof a !== 'string' ? pick(a) : null;
      return c.key === 'a' || typeof base !== 'number' || base === 0 ? shown : `${shown} (${ratio(v / base)})`;
    });
    console.log(`${label.padEnd(width)}${cells.map((s) => s.padEnd(col)).join('')}`);
  }
}

const origins = [
  ...(ORIGINS === 'lan' ? [] : [[`http://127.0.0.1:${port}`, 'a secure context'] as const]),
  ...(ORIGINS === 'secure' ? [] : [[`http://haul.test:${port}`, 'not a secure context: no navigator.locks, no OPFS'] as const]),
];
try {
  for (const [origin, what] of origins) {
    const results = new Map<string, Figures | string>();
    for (const c of candidates) {
      if (!ONLY.includes(c.key)) continue;
      if (c.built !== 'ok') {
        results.set(c.key, `not built: ${c.built}`);
        continue;
      }
      try {
        const f = await measure(c, origin);
        results.set(c.key, f);
        const sqlite = f.open.info as { lockStandIn?: boolean; version?: string } | null;
        console.log(
          `  ${c.label} on ${origin}: secure context ${f.open.secure}, navigator.locks ${f.open.locks}${sqlite?.version ? `, SQLite ${sqlite.version}${sqlite.lockStandIn ? ' with locks kept in the worker' : ''}` : ''}`,
        );
        console.log(`    records after the first sync: ${f.stored.idb.map((s) => `${s.db}/${s.store} ${s.records}`).join(', ')}${f.stored.rows !== null ? `; rows ${f.stored.rows}` : ''}`);
        if (f.stored.io) console.log(`    written below SQLite by the first sync: ${JSON.stringify(f.stored.io)}`);
        console.log(`    after sign-out: ${recordsOf(f.after)} records, ${f.clear.left} rows left in the big folder`);
        if (f.changes.wrong.length) console.log(`    WRONG: ${f.changes.wrong.join('; ')}`);
      } catch (err) {
        results.set(c.key, String(err));
        console.log(`  ${c.label} on ${origin} failed: ${String((err as Error).message).split('\n')[0]}`);
      }
    }
    console.log(`\nlocal store, Chromium, a ${FILES.toLocaleString('en-US')}-file folder (+100-file folder, 3 folders), ${origin} (${what})`);
    table(results);
    console.log('');
  }
} finally {
  server.close();
  rmSync(work, { recursive: true, force: true });
}
