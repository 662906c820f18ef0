/**
 * How one account's drive behaves as it grows: 10,000, 100,000 and 1,000,000 files (HAUL_BENCH_GROWTH_SIZES), on
 * SQLite and on PostgreSQL, over HTTP on loopback. At each size: a page of 100 in the middle of a large folder (keyset
 * cursor), a search by a word inside names (a rare word, 20 files at every size, and a common one, ~5% of files), the
 * incremental sync of the last 100 changes, trashing a 10,000-file folder, and creating a share link to a
 * 100,000-file folder (the whole 10,000 at the smallest size). Prints p50 per size and operation, and the ratio of
 * the largest size to the smallest: a cost that stays flat stays near 1x.
 *
 * The drive is written straight to the database (better-sqlite3 prepared inserts in big transactions; PostgreSQL
 * unnest() batches), names from a small vocabulary, most files in nested Archive/Year/Month folders.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildHaul } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { encodePageToken } from '../apps/server/src/lib/page-token.js';
import { freePort, ms, onBothDatabases, p50, pct, signUpApi } from './fixtures.js';

const SIZES = (process.env.HAUL_BENCH_GROWTH_SIZES ?? '10000,100000,1000000').split(',').map(Number).filter((n) => n >= 10_000);
const READS = 7;
const WRITES = 3;
const TEN = 10_000;
const FILTERS = { trashed: { eq: false }, phase: { eq: 'PHASE_TYPE_COMPLETE' } };
const WORDS = ['alpha', 'budget', 'canyon', 'delta', 'ember', 'forest', 'glacier', 'harbor', 'island', 'jungle', 'kettle', 'lantern', 'meadow',
  'nectar', 'orchid', 'pepper', 'quartz', 'river', 'summit', 'tundra', 'umber', 'velvet', 'willow', 'xenon', 'yonder', 'zenith', 'amber', 'basalt',
  'cobalt', 'dune', 'estuary', 'fjord', 'granite', 'heron', 'indigo', 'juniper', 'kelp', 'lagoon', 'marble', 'nimbus'];
const EXT = ['.jpg', '.mp4', '.pdf', '.txt', '.zip', '.mp3'];
const MIME = ['image/jpeg', 'video/mp4', 'application/pdf', 'text/plain', 'application/zip', 'audio/mpeg'];
const RARE = 'zephyrine';
const OPS = ['page of 100, middle of folder', `search "${RARE.slice(0, 6)}" (20 hits)`, 'search "lantern" (~5%)', 'sync of last 100 changes',
  'trash a 10,000-file folder', 'share link to the big folder', `  (raw query, "${RARE.slice(0, 6)}", no index)`] as const;

const peakMemory = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

/** Ids that sort in insertion order (20 url-safe characters, as route ids are): the primary key grows at its end. */
const seqId = (prefix: string, n: number) => `${prefix}${n.toString(36).padStart(19 - prefix.length + 1, '0')}`.slice(0, 20);

interface Row { id: string; parent: string; name: string; kind: string; size: number; ext: string; mime: string; t: number }

/**
 * The drive of one account, yielded in batches so memory stays bounded: Big (the share target: 10,000 files at the
 * smallest size, else 90,000 files and Ten, a 10,000-file subfolder), and the rest in Archive/Year n/Month m.
 */
function* drive(total: number, now: number): Generator<{ rows: Row[]; big: string; ten: string }> {
  const big = seqId('f', 0);
  const ten = total > TEN ? seqId('f', 1) : big;
  const bigDirect = total > TEN ? Math.min(total, 100_000) - TEN : total;
  const archived = total - Math.min(total, 100_000);
  const folders: Row[] = [{ id: big, parent: '', name: 'Big', kind: 'drive#folder', size: 0, ext: '', mime: '', t: now }];
  if (ten !== big) folders.push({ id: ten, parent: big, name: 'Ten', kind: 'drive#folder', size: 0, ext: '', mime: '', t: now });
  const leaves: string[] = [];
  if (archived) {
    const archive = seqId('f', 2);
    folders.push({ id: archive, parent: '', name: 'Archive', kind: 'drive#folder', size: 0, ext: '', mime: '', t: now });
    for (let y = 0; y < 10; y++) {
      const year = seqId('y', y);
      folders.push({ id: year, parent: archive, name: `Year ${2016 + y}`, kind: 'drive#folder', size: 0, ext: '', mime: '', t: now });
      for (let m = 0; m < 12; m++) {
        const month = seqId('m', y * 12 + m);
        folders.push({ id: month, parent: year, name: `Month ${m + 1}`, kind: 'drive#folder', size: 0, ext: '', mime: '', t: now });
        leaves.push(month);
      }
    }
  }
  // Folders a few ms apart, files whole seconds before them: every change time is distinct, so is the sync's cursor.
  folders.forEach((f, i) => (f.t = now - i));
  yield { rows: folders, big, ten };
  const rareEvery = Math.floor(total / 20);
  let batch: Row[] = [];
  for (let j = 0; j < total; j++) {
    const parent = j < bigDirect ? big : j < bigDirect + (ten !== big ? TEN : 0) ? ten : leaves[j % leaves.length]!;
    const k = j % EXT.length;
    const a = WORDS[(j * 7) % WORDS.length]!;
    const b = WORDS[(j * 13 + 5) % WORDS.length]!;
    const name = j % rareEvery === rareEvery >> 1 ? `${a} ${RARE} ${b} ${j}${EXT[k]}` : `${a} ${b} ${j}${EXT[k]}`;
    // Times spread over a year, all distinct: every sort order and the sync cursor have work to do.
    batch.push({ id: seqId('a', j), parent, name, kind: 'drive#file', size: ((j * 104729) % 100_000) * 97, ext: EXT[k]!, mime: MIME[k]!, t: now - 1000 - ((j * 7919) % 31_536_000) * 1000 });
    if (batch.length === 20_000) {
      yield { rows: batch, big, ten };
      batch = [];
    }
  }
  if (batch.length) yield { rows: batch, big, ten };
}

/** Writes the drive straight to the database; returns the two folders the operations use. */
async function seed(dataDir: string, databaseUrl: string | null, userId: string, total: number): Promise<{ big: string; ten: string }> {
  const now = Date.now();
  let out = { big: '', ten: '' };
  if (!databaseUrl) {
    const db = new SQLite(join(dataDir, 'haul.db'));
    db.pragma('busy_timeout = 5000');
    const ins = db.prepare(
      `INSERT INTO files (id, user_id, parent_id, name, kind, size, mime_type, file_extension, hash, star, trashed, phase, sensitive, params,
        created_time, modified_time, changed_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', 0, 0, 'PHASE_TYPE_COMPLETE', 0, '{}', ?, ?, ?)`,
    );
    const write = db.transaction((rows: Row[]) => {
      for (const r of rows) ins.run(r.id, userId, r.parent, r.name, r.kind, r.size, r.mime, r.ext, r.t, r.t, r.t);
    });
    for (const chunk of drive(total, now)) {
      write(chunk.rows);
      out = { big: chunk.big, ten: chunk.ten };
    }
    db.close();
    return out;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The trigram index is built once after the rows are in, as a restore would; then statistics, as autovacuum would.
    const trgm = (await client.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'files_name_trgm'`)).rows[0]?.indexdef as string | undefined;
    if (trgm) await client.query('DROP INDEX files_name_trgm');
    for (const chunk of drive(total, now)) {
      const col = <K extends keyof Row>(k: K) => chunk.rows.map((r) => r[k]);
      await client.query(
        `INSERT INTO files (id, user_id, parent_id, name, kind, size, mime_type, file_extension, hash, star, trashed, phase, sensitive, params,
           created_time, modified_time, changed_time)
         SELECT id, $1, parent, name, kind, size, mime, ext, '', 0, 0, 'PHASE_TYPE_COMPLETE', 0, '{}', t, t, t
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::bigint[])
           AS x(id, parent, name, kind, size, ext, mime, t)`,
        [userId, col('id'), col('parent'), col('name'), col('kind'), col('size'), col('ext'), col('mime'), col('t')],
      );
      out = { big: chunk.big, ten: chunk.ten };
    }
    if (trgm) await client.query(trgm);
    await client.query('ANALYZE files');
  } finally {
    await client.end();
  }
  return out;
}

async function atSize(label: string, databaseUrl: string | null, total: number): Promise<number[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-bench-growth-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let dbUrl = databaseUrl;
  if (databaseUrl) {
    // A fresh database per size on the same cluster.
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const name = `growth_${total}_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(databaseUrl);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
  }
  const haul = await buildHaul(
    { ...loadConfig({}), firstRunSetup: false, dataDir, databaseUrl: dbUrl, logLevel: 'silent', port, publicUrl: base, webDir: join(dataDir, 'none'), defaultQuotaBytes: 2 ** 50 },
    { logger: false },
  );
  await haul.app.listen({ port, host: '127.0.0.1' });
  try {
    const t = await signUpApi(base, `growth-${total}@example.com`);
    const auth = { authorization: `Bearer ${t.access_token}`, 'content-type': 'application/json' };
    const s0 = performance.now();
    const { big, ten } = await seed(dataDir, dbUrl, t.sub, total);
    console.log(`${label} ${total}: seeded in ${((performance.now() - s0) / 1000).toFixed(1)} s`);

    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as any;
    };
    const list = (q: Record<string, string | number>) =>
      call('GET', `/drive/v1/files?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`);

    // The cursor of the row halfway down the big folder in the default order (newest first).
    const folderRows = (await list({ parent_id: big, limit: 1, filters: JSON.stringify(FILTERS) })).files.length;
    if (!folderRows) throw new Error('the big folder is empty');
    const mid = await middleRow(haul.ctx.db, t.sub, big);
    const midToken = encodePageToken('MODIFY_TIME_DESC', [mid.modified_time, mid.id]);
    const page = await p50(READS, async () => {
      const r = await list({ parent_id: big, limit: 100, filters: JSON.stringify(FILTERS), page_token: midToken });
      if (r.files.length !== 100) throw new Error(`a middle page held ${r.files.length} files`);
    });
    const search = (word: string, expect: (n: number) => boolean) => async () => {
      const r = await list({ parent_id: '*', limit: 100, filters: JSON.stringify({ ...FILTERS, name: { contains: word } }) });
      if (!expect(r.files.length)) throw new Error(`search "${word}" found ${r.files.length}`);
    };
    const rare = await p50(READS, search(RARE.slice(0, 6), (n) => n === 20));
    const common = await p50(READS, search('lantern', (n) => n === 100));
    const since = await hundredthChange(haul.ctx.db, t.sub);
    const sync = await p50(READS, async () => {
      const r = await list({ parent_id: '*', limit: 500, filters: JSON.stringify({ modified_time: { gt: new Date(since).toISOString() } }) });
      if (r.files.length !== 100) throw new Error(`the sync returned ${r.files.length} changes`);
    });
    let shares = 0;
    const share = await p50(WRITES, async () => {
      const r = await call('POST', '/drive/v1/share', { file_ids: [big], share_to: 'publiclink', expiration_days: -1 });
      if (!r.share_id) throw new Error('no share made');
      shares++;
    }, false);
    // Trash, timed; put back, not timed, so the next round trashes the same 10,000 files.
    const trashTimes: number[] = [];
    for (let i = 0; i < WRITES; i++) {
      const s = performance.now();
      await call('POST', '/drive/v1/files:batchTrash', { ids: [ten] });
      trashTimes.push(performance.now() - s);
      await call('POST', '/drive/v1/files:batchUntrash', { ids: [ten] });
    }
    if (!shares) throw new Error('no share');
    const scan = await p50(READS, () => rawScan(dataDir, dbUrl, t.sub, RARE.slice(0, 6)));
    return [page, rare, common, sync, pct(trashTimes, 50), share, scan];
  } finally {
    await haul.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The search's query run directly without the trigram index (what every search cost before it): a reference. */
async function rawScan(dataDir: string, databaseUrl: string | null, userId: string, word: string): Promise<void> {
  const q = `SELECT * FROM files WHERE user_id = $1 AND trashed = 0 AND phase IN ('PHASE_TYPE_COMPLETE')
    AND lower(name) LIKE $2 ESCAPE '\\' ORDER BY modified_time DESC, id DESC LIMIT 101`;
  if (!databaseUrl) {
    const db = new SQLite(join(dataDir, 'haul.db'), { readonly: true });
    const n = db.prepare(q.replace('$1', '?').replace('$2', '?')).all(userId, `%${word}%`).length;
    db.close();
    if (n !== 20) throw new Error(`the raw scan found ${n}`);
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // GIN indexes are read only through bitmap scans: without them the trigram index is out of the plan.
    await client.query('SET enable_bitmapscan = off');
    const n = (await client.query(q, [userId, `%${word}%`])).rows.length;
    if (n !== 20) throw new Error(`the raw scan found ${n}`);
  } finally {
    await client.end();
  }
}

async function middleRow(db: import('../apps/server/src/db/database.js').Db, userId: string, folder: string) {
  const n = await db.selectFrom('files').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('parent_id', '=', folder).executeTakeFirstOrThrow();
  return db
    .selectFrom('files')
    .select(['id', 'modified_time'])
    .where('user_id', '=', userId)
    .where('parent_id', '=', folder)
    .orderBy('modified_time', 'desc')
    .orderBy('id', 'desc')
    .offset(Math.floor(Number(n.n) / 2))
    .limit(1)
    .executeTakeFirstOrThrow();
}

async function hundredthChange(db: import('../apps/server/src/db/database.js').Db, userId: string): Promise<number> {
  const row = await db.selectFrom('files').select('changed_time').where('user_id', '=', userId).orderBy('changed_time', 'desc').offset(100).limit(1).executeTakeFirstOrThrow();
  return Number(row.changed_time);
}

await onBothDatabases(async (label, databaseUrl) => {
  const results = new Map<number, number[]>();
  console.log('');
  for (const size of SIZES) results.set(size, await atSize(label, databaseUrl, size));
  const head = ['operation (p50)'.padEnd(32), ...SIZES.map((s) => `${s.toLocaleString('en')} files`.padStart(16)), `${SIZES.at(-1)!.toLocaleString('en')}/${SIZES[0]!.toLocaleString('en')}`.padStart(18)];
  console.log(`\n${label}\n${head.join('')}`);
  OPS.forEach((op, i) => {
    const row = SIZES.map((s) => results.get(s)![i]!);
    const ratio = row.at(-1)! / row[0]!;
    const verdict = ratio <= 2 ? 'flat' : ratio <= 5 ? 'grows slowly' : 'grows';
    console.log(`${op.padEnd(32)}${row.map((v) => ms(v).padStart(16)).join('')}${`${ratio.toFixed(1)}x ${verdict}`.padStart(18)}`);
  });
});
console.log(`\npeak memory (server and benchmark in one process): ${peakMemory().toFixed(0)} MB (VmHWM)`);
