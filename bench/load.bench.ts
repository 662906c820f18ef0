/**
 * Many clients at once on loopback, for a bounded time (HAUL_BENCH_LOAD_SECONDS, default 15): 160 autocannon
 * connections paging folder listings as fast as answers come (pages of 100 over 20 users' 2,000-file folders, each
 * request with its owner's token), 40 connections fetching files of 1-8 MB through their download links (20 a second
 * in all), and 50 clients each starting a 4 MB upload over tus in 1 MB chunks every 10 s (bench/load-clients.ts). Then
 * the same load on the references: the same keyset pages from the raw query behind a bare node:http server
 * (bench/raw-listing-server.ts, checking the same bearer tokens and their sessions), the same bytes from nginx, the same uploads as PUTs into nginx. Prints requests/s and
 * p50/p99 per kind and target, the ratios, Haul's event-loop delay (prom-client's, from /metrics), its RSS and heap
 * before, at peak and after, CPU time, and every error or non-2xx answer (any makes the run exit 1).
 * On SQLite and PostgreSQL (HAUL_BENCH_LOAD_DATABASES=sqlite,postgresql). Haul runs as `npm start` runs it.
 * HAUL_BENCH_LOAD_ENCODING=br makes the listing clients accept compressed answers, as browsers do.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/database.js';
import { freePort, pct, seedFolder, signUpClient } from './fixtures.js';
import { cpuSecondsOf, rssOf, sampleRss, startHaulProcess, type HaulProcess } from './haul-process.js';
import {
  badCount, closeClients, creates, fetchLoad, FETCH_RATE, hammer, LIST_RATE, nginxPut, patches, perSecond, SECONDS, sleep, tusUpload,
  uploadLoad, UPLOAD_BYTES, UPLOAD_EVERY, UPLOADERS, type Figures, type Req,
} from './load-clients.js';
import { Cleanup, loadLine, MiB, startNginx } from './references.js';
import { startPgCluster } from '../scripts/pg-cluster.mjs';

const DATABASES = (process.env.HAUL_BENCH_LOAD_DATABASES ?? 'sqlite,postgresql').split(',');
/** HAUL_BENCH_LOAD_ENCODING=br: the listing clients accept compressed answers, as browsers do (none by default). */
const ENCODING = process.env.HAUL_BENCH_LOAD_ENCODING ?? '';
const USERS = 20;
const FILES_PER_USER = 2000;
/** The web app's folder page (seed 000: 100 in the viewer). */
const PAGE = 100;
/** HAUL_BENCH_LOAD_LIST_CONNECTIONS=0 leaves the listings out, to see the fetches and uploads alone. */
const LIST_CONNECTIONS = Number(process.env.HAUL_BENCH_LOAD_LIST_CONNECTIONS ?? 160);
const FETCH_CONNECTIONS = 40;
const FILTERS = encodeURIComponent(JSON.stringify({ trashed: { eq: false }, phase: { eq: 'PHASE_TYPE_COMPLETE' } }));
const mb = (n: number) => `${(n / MiB).toFixed(0)} MB`;

/**
 * prom-client's event-loop delay figures (seconds) from Haul's /metrics, each scrape starting a new histogram, and the
 * V8 heap in use (bytes): RSS that stays up while the heap comes back down is the allocator keeping pages, not a leak.
 */
async function eventLoopDelay(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^nodejs_eventloop_lag_(p50|p99|max|mean)_seconds (\S+)$/gm)) out[m[1]!] = Number(m[2]);
  out.heap = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? NaN);
  // PostgreSQL's pool (absent on SQLite): connections handed out, and the seconds spent getting them.
  out.acquired = Number(/^haul_db_pool_acquired_total (\S+)$/m.exec(text)?.[1] ?? NaN);
  out.poolWait = Number(/^haul_db_pool_wait_seconds_total (\S+)$/m.exec(text)?.[1] ?? NaN);
  out.poolSize = Number(/^haul_db_pool_size (\S+)$/m.exec(text)?.[1] ?? NaN);
  return out;
}

/** The raw listing server as its own process, checking Haul's bearer tokens with Haul's token key (base64). */
async function startRawServer(database: string, tokenKey: string): Promise<{ base: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'raw-listing-server.ts'), String(port), database], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HAUL_RAW_TOKEN_KEY: tokenKey },
  });
  await new Promise<void>((ok, fail) => {
    child.stdout!.once('data', () => ok());
    child.once('exit', (code) => fail(new Error(`the raw listing server exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => void child.kill('SIGTERM') };
}

/** RSS of `pid` every 5 s through the window, for the "flat?" line. */
function rssTimeline(pid: number): () => string[] {
  const marks = [mb(rssOf(pid))];
  const timer = setInterval(() => marks.push(mb(rssOf(pid))), 5000);
  return () => {
    clearInterval(timer);
    return marks;
  };
}

const fmt = (f: Figures) =>
  `${perSecond(f).toFixed(0).padStart(5)} /s  p50 ${pct(f.times, 50).toFixed(1).padStart(6)} ms  p99 ${pct(f.times, 99).toFixed(1).padStart(7)} ms`;
const ratio = (haul: Figures, ref: Figures) =>
  `${(perSecond(haul) / perSecond(ref)).toFixed(2)}x /s, ${(pct(haul.times, 50) / pct(ref.times, 50)).toFixed(1)}x p50, ${(pct(haul.times, 99) / pct(ref.times, 99)).toFixed(1)}x p99`;

async function run(label: string, databaseUrl: string | null, cleanup: Cleanup) {
  const work = mkdtempSync(join(tmpdir(), 'haul-bench-load-'));
  cleanup.add(() => rmSync(work, { recursive: true, force: true }));
  const haul: HaulProcess = await startHaulProcess(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
  cleanup.add(() => haul.stop());
  const t0 = performance.now();

  // Users (sign-ups from one address: 20 are free, see accounts.service.ts), their folders, a real file each.
  const users: Awaited<ReturnType<typeof signUpClient>>[] = [];
  for (let k = 0; k < USERS; k++) users.push(await signUpClient(haul.base, `load-${k}@example.com`));
  const { db } = await openDatabase({ databaseUrl, dataDir: haul.dataDir });
  const folders: string[] = [];
  for (const u of users) folders.push(await seedFolder(db, u.tokens.sub, 'Big', FILES_PER_USER));
  if (databaseUrl) await sql`ANALYZE files`.execute(db);
  // The raw server checks the same tokens the cheapest correct way, so it needs the key they are signed with.
  const tokenKey = (await db.selectFrom('system_kv').select('value').where('key', '=', 'token_key').executeTakeFirstOrThrow()).value;
  await db.destroy();
  const fetchRoot = await startNginx(join(work, 'nginx-get'));
  cleanup.add(() => fetchRoot.stop());
  const haulFetches: Req[] = [];
  const nginxFetches: Req[] = [];
  for (let k = 0; k < USERS; k++) {
    const bytes = randomBytes(((k % 8) + 1) * MiB);
    writeFileSync(join(fetchRoot.root, `${k}.bin`), bytes);
    const task = await tusUpload(users[k]!.client, users[k]!.tokens.access_token, bytes, `real-${k}.bin`);
    let t = await users[k]!.client.call('getTask', { params: { id: task } });
    while (t.phase !== 'PHASE_TYPE_COMPLETE') {
      if (t.phase === 'PHASE_TYPE_ERROR') throw new Error(`setup upload failed: ${t.message}`);
      await sleep(20);
      t = await users[k]!.client.call('getTask', { params: { id: task } });
    }
    const file = await users[k]!.client.call('getFile', { params: { id: t.file_id } });
    const link = new URL(file.web_content_link);
    haulFetches.push({ path: link.pathname + link.search, headers: {} });
    nginxFetches.push({ path: `/${k}.bin`, headers: {} });
  }

  // Every page of every folder, as Haul's page tokens and as the raw server's cursors.
  const raw = await startRawServer(databaseUrl ?? join(haul.dataDir, 'haul.db'), tokenKey);
  cleanup.add(() => raw.stop());
  const haulPages: Req[] = [];
  const rawPages: Req[] = [];
  for (let k = 0; k < USERS; k++) {
    const headers: Record<string, string> = { authorization: `Bearer ${users[k]!.tokens.access_token}`, ...(ENCODING ? { 'accept-encoding': ENCODING } : {}) };
    const first = `/drive/v1/files?parent_id=${folders[k]}&limit=${PAGE}&filters=${FILTERS}`;
    let token = '';
    do {
      const path = token ? `${first}&page_token=${encodeURIComponent(token)}` : first;
      haulPages.push({ path, headers });
      const page = (await (await fetch(haul.base + path, { headers })).json()) as { next_page_token: string };
      token = page.next_page_token;
    } while (token);
    let cursor = '';
    for (;;) {
      const path = `/files?p=${folders[k]}&n=${PAGE}${cursor}`;
      const auth = { authorization: headers.authorization! };
      const rows = ((await (await fetch(raw.base + path, { headers: auth })).json()) as { files: { id: string; modified_time: number | string }[] }).files;
      if (!rows.length) break;
      rawPages.push({ path, headers: auth });
      const last = rows[rows.length - 1]!;
      cursor = `&t=${last.modified_time}&i=${last.id}`;
    }
  }
  const putRoot = await startNginx(join(work, 'nginx-put'));
  cleanup.add(() => putRoot.stop());
  const uploadBytes = Array.from({ length: UPLOADERS }, () => randomBytes(UPLOAD_BYTES));
  console.log(
    `\n${label}: ${USERS} users x ${FILES_PER_USER} files, ${haulPages.length} pages of ${PAGE} (raw: ${rawPages.length}), ` +
      `${USERS} files of 1-8 MB; set up in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // Haul: the three kinds at once.
  await sleep(2000);
  const rssBefore = rssOf(haul.pid);
  const before = await eventLoopDelay(haul.base);
  const heapBefore = before.heap!;
  const clientDelay = monitorEventLoopDelay({ resolution: 10 });
  clientDelay.enable();
  const rss = sampleRss(haul.pid);
  const timeline = rssTimeline(haul.pid);
  const cpu0 = cpuSecondsOf(haul.pid);
  const me0 = process.cpuUsage();
  console.log(`  ${loadLine()}`);
  const tasks: { k: number; id: string }[] = [];
  creates.length = patches.length = 0;
  const [hList, hFetch, hUp] = await Promise.all([
    hammer(haul.base, haulPages, LIST_CONNECTIONS),
    fetchLoad(haul.base, haulFetches, FETCH_CONNECTIONS),
    uploadLoad(async (k, n) => {
      const u = users[k % USERS]!;
      tasks.push({ k: k % USERS, id: await tusUpload(u.client, u.tokens.access_token, uploadBytes[k]!, `up-${k}-${n}.bin`) });
    }),
  ]);
  const haulCpu = cpuSecondsOf(haul.pid) - cpu0;
  const me = process.cpuUsage(me0);
  const delay = await eventLoopDelay(haul.base);
  const peak = rss.stop();
  clientDelay.disable();
  const marks = timeline();
  // Every upload the window accepted must become a file.
  let complete = 0;
  const failed: string[] = [];
  const settleBy = performance.now() + 60_000;
  for (const t of tasks) {
    for (;;) {
      const task = await users[t.k]!.client.call('getTask', { params: { id: t.id } });
      if (task.phase === 'PHASE_TYPE_COMPLETE') complete++;
      else if (task.phase === 'PHASE_TYPE_ERROR') failed.push(task.message);
      else if (performance.now() < settleBy) {
        await sleep(50);
        continue;
      }
      break;
    }
  }
  await sleep(5000);
  const rssAfter = rssOf(haul.pid);
  const heapAfter = (await eventLoopDelay(haul.base)).heap!;
  console.log(`  ${loadLine()}`);

  // The references: raw listing server, nginx serving the same bytes and taking the PUTs.
  await sleep(2000);
  const refCpu0 = cpuSecondsOf(raw.pid) + cpuSecondsOf(fetchRoot.pid) + cpuSecondsOf(putRoot.pid);
  const refMe0 = process.cpuUsage();
  const refDelay = monitorEventLoopDelay({ resolution: 10 });
  refDelay.enable();
  await fetch(`${raw.base}/delay`);
  const [rList, rFetch, rUp] = await Promise.all([
    hammer(raw.base, rawPages, LIST_CONNECTIONS),
    fetchLoad(fetchRoot.base, nginxFetches, FETCH_CONNECTIONS),
    uploadLoad((k) => nginxPut(`${putRoot.base}/${k}.bin`, uploadBytes[k]!)),
  ]);
  refDelay.disable();
  const rawDelay = (await (await fetch(`${raw.base}/delay`)).json()) as Record<string, number>;
  const refCpu = cpuSecondsOf(raw.pid) + cpuSecondsOf(fetchRoot.pid) + cpuSecondsOf(putRoot.pid) - refCpu0;
  const refMe = process.cpuUsage(refMe0);
  console.log(`  ${loadLine()}`);

  const s = (x: number) => `${(x * 1000).toFixed(1)} ms`;
  const fetchMix = `${FETCH_CONNECTIONS} conns, ${FETCH_RATE}/s in all`;
  console.log(`  ${SECONDS} s windows; Haul | reference | Haul/reference`);
  const listMix = `${LIST_CONNECTIONS} conns${LIST_RATE ? `, ${LIST_RATE}/s in all` : ''}`;
  if (LIST_CONNECTIONS) console.log(`  listing, page of ${PAGE} (${listMix})  Haul ${fmt(hList)} | raw   ${fmt(rList)} | ${ratio(hList, rList)}`);
  console.log(`  file fetch 1-8 MB (${fetchMix})  Haul ${fmt(hFetch)} | nginx ${fmt(rFetch)} | ${ratio(hFetch, rFetch)}`);
  console.log(`    fetched: Haul ${mb(hFetch.bytes / hFetch.seconds)}/s, nginx ${mb(rFetch.bytes / rFetch.seconds)}/s`);
  console.log(`  upload 4 MB (${UPLOADERS} clients, one each ${UPLOAD_EVERY} s; tus 1 MB chunks | PUT)  Haul ${fmt(hUp)} | nginx ${fmt(rUp)} | ${ratio(hUp, rUp)}`);
  console.log(`    Haul's uploads: creating p50 ${pct(creates, 50).toFixed(0)} p99 ${pct(creates, 99).toFixed(0)} ms, each 1 MB PATCH p50 ${pct(patches, 50).toFixed(0)} p99 ${pct(patches, 99).toFixed(0)} ms`);
  console.log(`    uploaded: Haul ${mb(hUp.bytes / hUp.seconds)}/s (${complete} of ${tasks.length} complete${failed.length ? `, ${failed.length} failed: ${failed[0]}` : ''}), nginx ${mb(rUp.bytes / rUp.seconds)}/s`);
  const errs = (fs: Figures[]) => JSON.stringify(Object.assign({}, ...fs.map((f) => f.bad)));
  const errorCount = [hList, hFetch, hUp, rList, rFetch, rUp].map(badCount);
  console.log(`  errors and non-2xx: Haul ${errorCount.slice(0, 3).join('/')} ${errs([hList, hFetch, hUp])}, references ${errorCount.slice(3).join('/')} ${errs([rList, rFetch, rUp])} (listing/fetch/upload)`);
  console.log(`  Haul event-loop delay over the window (prom-client, 10 ms sampling: an idle loop reads ~10 ms): p50 ${s(delay.p50!)}, p99 ${s(delay.p99!)}, max ${s(delay.max!)}; raw server's: p50 ${s(rawDelay.p50!)}, p99 ${s(rawDelay.p99!)}, max ${s(rawDelay.max!)}`);
  if (databaseUrl) {
    const n = delay.acquired! - before.acquired!;
    const waited = delay.poolWait! - before.poolWait!;
    console.log(
      `  Haul's PostgreSQL pool (${delay.poolSize} connections): ${(n / SECONDS).toFixed(0)} handed out a second, ` +
        `mean wait for one ${((waited / n) * 1000).toFixed(1)} ms, ${waited.toFixed(1)} s waited in all (callers together)`,
    );
  }
  console.log(
    `  Haul RSS: ${mb(rssBefore)} before, peak ${mb(peak.peak)}${peak.hwm ? ` (VmHWM ${mb(peak.hwm)})` : ''}, ${mb(rssAfter)} 5 s after; every 5 s: ${marks.join(', ')}` +
      `; V8 heap in use ${mb(heapBefore)} before, ${mb(delay.heap!)} at the end, ${mb(heapAfter)} after`,
  );
  const cpuOf = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(1);
  console.log(
    `  CPU seconds in the window: Haul ${haulCpu.toFixed(1)}, references ${refCpu.toFixed(1)} (raw + 2 nginx); the load's client ${cpuOf(me)} | ${cpuOf(refMe)}` +
      `; client event-loop delay p99 ${(clientDelay.percentile(99) / 1e6).toFixed(0)} | ${(refDelay.percentile(99) / 1e6).toFixed(0)} ms`,
  );
  const total = errorCount.reduce((a, b) => a + b, 0) + failed.length + (tasks.length - complete - failed.length);
  if (total) process.exitCode = 1;
}

const cleanup = new Cleanup();
try {
  for (const which of DATABASES) {
    if (which === 'sqlite') await run('SQLite', null, cleanup);
    else {
      const given = process.env.HAUL_BENCH_DATABASE_URL;
      const cluster = given ? null : await startPgCluster();
      if (cluster) cleanup.add(() => cluster.stop());
      await run('PostgreSQL', given ?? cluster!.url, cleanup);
    }
    await cleanup.run();
  }
} finally {
  await cleanup.run();
  closeClients();
}
