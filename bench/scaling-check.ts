/**
 * What the schema costs as a site grows, measured on a throwaway PostgreSQL (docs/SCALING.md):
 *
 * 1. `users` seeded to HAUL_SCALING_USERS rows (1,000,000): the time, the bytes a row takes, and the account lookups
 *    that read it (sign-in by address, the console's newest-first page and its address prefix search).
 * 2. `files` seeded with HAUL_SCALING_ACCOUNTS accounts (100,000) of HAUL_SCALING_FILES_PER_ACCOUNT rows (10: a folder
 *    and its files) plus one account with a folder of HAUL_SCALING_BIG files (100,000); then `files_part`, the same
 *    rows in a copy of the table partitioned by hash of user_id (HAUL_SCALING_PARTITIONS, 16). The listing's keyset
 *    page, the sync page, the storage sum and the lookups that carry no user_id are EXPLAINed and timed on both.
 * 3. The other tables that grow (events, tasks, shares, share_files, offline_sources, attempt_limits, blobs,
 *    sessions, refresh_tokens, file_tombstones, audit_events) seeded with HAUL_SCALING_ROWS rows (100,000) of
 *    realistic widths, and the bytes a row takes with its indexes; the console's aggregate over `blobs`.
 *
 * The schema is Haul's own: the migrations run first (openDatabase). Rows are written with INSERT … SELECT over
 * generate_series, so the seed is PostgreSQL's work, not the client's. The throwaway cluster runs as the tests start
 * it (fsync off: seeding times are a floor). HAUL_BENCH_DATABASE_URL runs it on an EMPTY database you give instead.
 *
 *   node --import tsx bench/scaling-check.ts
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/database.js';
import { startPgCluster } from '../scripts/pg-cluster.mjs';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const USERS = num('HAUL_SCALING_USERS', 1_000_000);
const ACCOUNTS = Math.min(num('HAUL_SCALING_ACCOUNTS', 100_000), USERS - 1);
const PER_ACCOUNT = num('HAUL_SCALING_FILES_PER_ACCOUNT', 10);
const BIG = num('HAUL_SCALING_BIG', 100_000);
const PARTS = num('HAUL_SCALING_PARTITIONS', 16);
const ROWS = num('HAUL_SCALING_ROWS', 100_000);
const TIMED_RUNS = num('HAUL_SCALING_RUNS', 300);

const COMPLETE = 'PHASE_TYPE_COMPLETE';
const T0 = 1_780_000_000_000;
// The account ids and file ids the seed writes: 20 characters, as newId()'s are (hex here, so a row is as wide).
const uid = (i: string) => `left(md5('u' || ${i}), 20)`;

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

async function main(): Promise<void> {
  const given = process.env.HAUL_BENCH_DATABASE_URL;
  const cluster = given ? null : await startPgCluster();
  const url = given ?? cluster!.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-scaling-'));
  const client = new pg.Client(url);
  try {
    const { db } = await openDatabase({ databaseUrl: url, dataDir });
    await db.destroy();
    await client.connect();
    const version = (await client.query('show server_version')).rows[0].server_version;
    const buffers = (await client.query('show shared_buffers')).rows[0].shared_buffers;
    console.log(`PostgreSQL ${version}, shared_buffers ${buffers}; load average at start ${load()} (2 cores)`);
    await usersCheck(client);
    await filesCheck(client);
    await otherTables(client);
    console.log(`\nload average at the end ${load()}`);
  } finally {
    await client.end().catch(() => undefined);
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs `sql` and prints how long it took. */
async function timed(c: pg.Client, label: string, sql: string, params: unknown[] = []): Promise<number> {
  const t = performance.now();
  const r = await c.query(sql, params);
  const s = (performance.now() - t) / 1000;
  console.log(`  ${label}: ${s.toFixed(1)} s${r.rowCount ? ` (${r.rowCount.toLocaleString('en')} rows)` : ''}`);
  return s;
}

/** Bytes of a table: heap (with TOAST), its indexes, and the whole, over a partitioned table's partitions too. */
async function sizeOf(c: pg.Client, table: string): Promise<{ heap: number; indexes: number; total: number; rows: number }> {
  const r = await c.query(
    `select coalesce(sum(pg_table_size(relid)), 0)::bigint heap, coalesce(sum(pg_indexes_size(relid)), 0)::bigint indexes,
            coalesce(sum(pg_total_relation_size(relid)), 0)::bigint total
       from (select relid from pg_partition_tree($1::regclass) where isleaf
             union select $1::regclass where not exists (select from pg_inherits where inhparent = $1::regclass)) t`,
    [table],
  );
  const rows = Number((await c.query(`select count(*) n from ${table}`)).rows[0].n);
  return { heap: Number(r.rows[0].heap), indexes: Number(r.rows[0].indexes), total: Number(r.rows[0].total), rows };
}

function printSize(table: string, s: { heap: number; indexes: number; total: number; rows: number }): void {
  const per = (b: number) => (s.rows ? Math.round(b / s.rows) : 0);
  console.log(
    `  ${table.padEnd(22)} ${s.rows.toLocaleString('en').padStart(10)} rows  heap ${mb(s.heap).padStart(9)}  indexes ${mb(s.indexes).padStart(9)}` +
      `  total ${mb(s.total).padStart(9)}  per row: ${per(s.heap)} + ${per(s.indexes)} = ${per(s.total)} B`,
  );
}

/** p50 and p99 of `runs` executions, each with the parameters `params(i)` gives. */
async function latency(c: pg.Client, sql: string, params: (i: number) => unknown[], runs = TIMED_RUNS): Promise<string> {
  for (let i = 0; i < 20; i++) await c.query(sql, params(i));
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await c.query(sql, params(i));
    xs.push(performance.now() - t);
  }
  return `p50 ${pct(xs, 50).toFixed(3)} ms, p99 ${pct(xs, 99).toFixed(3)} ms (${runs} runs)`;
}

/** The plan's lines, with what partitions it reads counted. */
async function explain(c: pg.Client, label: string, sql: string, params: unknown[]): Promise<void> {
  const r = await c.query(`explain (analyze, buffers, costs off) ${sql}`, params);
  const lines: string[] = r.rows.map((x) => x['QUERY PLAN'] as string);
  const parts = new Set(lines.flatMap((l) => [...l.matchAll(/ on (files_part_\d+)/g)].map((m) => m[1])));
  console.log(`  EXPLAIN ${label}${parts.size ? `: reads ${parts.size} partition(s)` : ''}`);
  for (const l of lines) console.log(`    ${l}`);
}

async function usersCheck(c: pg.Client): Promise<void> {
  console.log(`\n== users: ${USERS.toLocaleString('en')} accounts ==`);
  await timed(
    c,
    'seed',
    `insert into users (id, email, name, password_hash, is_admin, storage_limit, premium_expire, created_at, password_updated_at, session_epoch)
     select ${uid('i')}, 'user' || i || '@example.com', 'user' || i,
            '$argon2id$v=19$m=19456,t=2,p=1$' || left(md5('s' || i), 22) || '$' || left(md5('h' || i) || md5('k' || i), 43),
            0, 10737418240, case when i % 10 = 0 then ${T0} + i else null end, ${T0} - (${USERS} - i) * 1000, ${T0}, 0
       from generate_series(1, ${USERS}) i`,
  );
  await c.query('analyze users');
  printSize('users', await sizeOf(c, 'users'));
  const email = (i: number) => [`user${1 + ((i * 7919) % USERS)}@example.com`];
  console.log(`  sign-in's lookup by address: ${await latency(c, 'select * from users where email = $1', email)}`);
  console.log(
    `  console, newest accounts (page of 50): ${await latency(c, 'select * from users where deleted_at is null order by created_at desc, id desc limit 51', () => [])}`,
  );
  const prefix = (i: number) => {
    const p = `user${1 + ((i * 7919) % 9999)}`;
    return [p, `${p}\u{10ffff}`];
  };
  const search = 'select * from users where deleted_at is null and email >= $1 and email < $2 order by email, id limit 51';
  console.log(`  console, address prefix search (page of 50): ${await latency(c, search, prefix)}`);
  const short = await latency(c, search, () => ['user1', 'user1\u{10ffff}'], 20);
  console.log(`  the same for "user1" (a prefix ${Math.round(USERS / 9).toLocaleString('en')} addresses share): ${short}`);
  await explain(c, 'console prefix search "user4242"', search, prefix(0).map((p) => p.replace(/user\d+/, 'user4242')));
}

async function filesCheck(c: pg.Client): Promise<void> {
  const total = ACCOUNTS * PER_ACCOUNT + BIG + 1;
  console.log(`\n== files: ${ACCOUNTS.toLocaleString('en')} accounts x ${PER_ACCOUNT} rows + one folder of ${BIG.toLocaleString('en')} (${total.toLocaleString('en')} rows) ==`);
  // The trigram index is built after the rows, as growth.bench.ts does (a GIN index fed row by row slows a bulk load).
  await c.query('drop index files_name_trgm');
  const cols = `(id, user_id, parent_id, name, kind, size, mime_type, file_extension, hash, star, star_time, trashed, trash_group,
                 trashed_at, phase, sensitive, params, created_time, modified_time, changed_time)`;
  // One row: a folder when `folder` is true in SQL, else a JPEG with its 64-character content hash.
  const row = (i: string, user: string, parent: string, folder: string, name: string, t: string, n = `(${i})::bigint`) => `
    select left(md5('f' || ${n}), 20), ${user}, ${parent}, ${name}, case when ${folder} then 'drive#folder' else 'drive#file' end,
           case when ${folder} then 0 else (${n} * 104729) % 50000000 end, case when ${folder} then '' else 'image/jpeg' end,
           case when ${folder} then '' else '.jpg' end, case when ${folder} then '' else md5('c' || ${n}) || md5('d' || ${n}) end,
           0, null::bigint, 0, null::text, null::bigint, '${COMPLETE}', 0, '{}', ${t}, ${t}, ${t}`;
  // Account a (1..ACCOUNTS): row n = a * PER_ACCOUNT + k; k = 0 is the folder "Photos" in the root, the rest inside it.
  await timed(
    c,
    `seed ${(ACCOUNTS * PER_ACCOUNT).toLocaleString('en')} rows of small accounts`,
    `insert into files ${cols}
     select * from (${row('n', uid('a'), `case when k = 0 then '' else left(md5('f' || (a * ${PER_ACCOUNT})), 20) end`, 'k = 0',
       `case when k = 0 then 'Photos' else 'IMG_' || (20000 + n % 9000) || ' ' || k || '.jpg' end`, `${T0} - ((n::bigint * 7919) % 31536000) * 1000`)}
       from generate_series(1, ${ACCOUNTS}) a, generate_series(0, ${PER_ACCOUNT - 1}) k, lateral (select a * ${PER_ACCOUNT} + k as n) x) s`,
  );
  // The last account (USERS) holds one folder of BIG files (row 0, ids of its files from negative n): the heavy user.
  await timed(
    c,
    `seed the big account's folder of ${BIG.toLocaleString('en')}`,
    `insert into files ${cols}
     select * from (${row('n', uid(String(USERS)), `case when n = 0 then '' else left(md5('f' || 0), 20) end`, 'n = 0',
       `case when n = 0 then 'Everything' else 'scan ' || n || '.jpg' end`, `${T0} - ((n::bigint * 7919) % 31536000) * 1000`)}
       from generate_series(-${BIG}, 0) n) s`,
  );
  await timed(c, 'trigram index built after', 'create index files_name_trgm on files using gin (lower(name) gin_trgm_ops)');
  await c.query('analyze files');
  const plain = await sizeOf(c, 'files');
  const trgm = Number((await c.query(`select pg_relation_size('files_name_trgm') b`)).rows[0].b);
  printSize('files', plain);
  console.log(`    of which the trigram index ${mb(trgm)} (${Math.round(trgm / plain.rows)} B a row)`);
  const perIndex = await c.query(
    `select indexrelid::regclass::text name, pg_relation_size(indexrelid) b from pg_index where indrelid = 'files'::regclass order by 2 desc`,
  );
  console.log(`    by index: ${perIndex.rows.map((r) => `${r.name} ${mb(Number(r.b))}`).join(', ')}`);

  // The partitioned copy. Its primary key must hold the partition key: (user_id, id); a lookup by id alone gets a
  // plain index on each partition, and an id's uniqueness across accounts is no longer the database's to enforce.
  console.log(`\n== files_part: the same rows, partitioned by hash (user_id) into ${PARTS} ==`);
  await c.query(`create table files_part (like files including defaults) partition by hash (user_id)`);
  for (let i = 0; i < PARTS; i++) await c.query(`create table files_part_${i} partition of files_part for values with (modulus ${PARTS}, remainder ${i})`);
  await timed(c, 'copy the rows', 'insert into files_part select * from files');
  const t = performance.now();
  await c.query('alter table files_part add primary key (user_id, id)');
  await c.query('create unique index files_part_live_name on files_part (user_id, parent_id, name) where trashed = 0');
  for (const [name, columns] of [
    ['id', 'id'],
    ['trash_group', 'trash_group'],
    ['trashed_at', 'trashed_at'],
    ['hash', 'hash'],
    ['created', 'created_time'],
    ['parent_mtime', 'user_id, parent_id, modified_time, id'],
    ['parent_name', 'user_id, parent_id, name, id'],
    ['parent_size', 'user_id, parent_id, size, id'],
    ['user_mtime', 'user_id, modified_time, id'],
    ['user_changed', 'user_id, changed_time, id'],
  ]) {
    await c.query(`create index files_part_${name} on files_part (${columns})`);
  }
  await c.query('create index files_part_name_trgm on files_part using gin (lower(name) gin_trgm_ops)');
  console.log(`  the same indexes, built after: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await c.query('analyze files_part');
  printSize('files_part', await sizeOf(c, 'files_part'));

  // What the queries ask, from files/list-query.ts (the default order, a page of 100 and one more to know of a next).
  const listing = (table: string, cursor: boolean) =>
    `select * from ${table} where user_id = $1 and trashed = 0 and parent_id = $2 and phase in ($3)` +
    (cursor ? ` and (modified_time, id) < ($4, $5)` : '') +
    ' order by modified_time desc, id desc limit 101';
  const sync = (table: string) =>
    `select * from ${table} where user_id = $1 and changed_time > $2 order by changed_time, id limit 500`;
  const usage = (table: string) =>
    `select coalesce(sum(size), 0) total, coalesce(sum(case when trashed = 1 then size else 0 end), 0) trash from ${table} where user_id = $1 and kind = 'drive#file'`;
  const small = (i: number) => {
    const a = 1 + ((i * 7919) % ACCOUNTS);
    return { user: md5Left('u' + a), folder: md5Left('f' + a * PER_ACCOUNT) };
  };
  const bigUser = md5Left(`u${USERS}`);
  const bigFolder = md5Left('f0');
  const middle = (
    await c.query(`select modified_time, id from files where user_id = $1 and parent_id = $2 and trashed = 0 order by modified_time desc, id desc offset $3 limit 1`, [
      bigUser,
      bigFolder,
      Math.floor(BIG / 2),
    ])
  ).rows[0];
  const someIds = (await c.query(`select id from files tablesample system (1) limit 1000`)).rows.map((r) => r.id as string);

  for (const table of ['files', 'files_part']) {
    console.log(`\n  -- ${table} --`);
    await explain(c, `${table}: first page of a small account's folder`, listing(table, false), [small(1).user, small(1).folder, COMPLETE]);
    await explain(c, `${table}: a middle page of the ${BIG}-file folder`, listing(table, true), [bigUser, bigFolder, COMPLETE, middle.modified_time, middle.id]);
    console.log(`  first page, small accounts (a different one each run): ${await latency(c, listing(table, false), (i) => [small(i).user, small(i).folder, COMPLETE])}`);
    console.log(`  first page of the big folder: ${await latency(c, listing(table, false), () => [bigUser, bigFolder, COMPLETE])}`);
    console.log(
      `  middle page of the big folder: ${await latency(c, listing(table, true), () => [bigUser, bigFolder, COMPLETE, middle.modified_time, middle.id])}`,
    );
    console.log(`  sync page (changed_time > 0, 500), big account: ${await latency(c, sync(table), () => [bigUser, 0], 50)}`);
    console.log(`  storage sum (every write's room check), small accounts: ${await latency(c, usage(table), (i) => [small(i).user])}`);
    console.log(`  storage sum, the big account (${BIG} files): ${await latency(c, usage(table), () => [bigUser], 30)}`);
    // No user_id: a share's items and the console's file marks read files by id alone; the media worker scans new
    // files of every account by created_time; the trash purge by trashed_at.
    console.log(`  by id alone (share items, console): ${await latency(c, `select * from ${table} where id = $1`, (i) => [someIds[i % someIds.length]])}`);
    await explain(c, `${table}: by id alone`, `select * from ${table} where id = $1`, [someIds[0]]);
    const newVideos = `select hash, name, mime_type, user_id from ${table} where created_time > $1 and kind = 'drive#file' and phase = '${COMPLETE}' and trashed = 0 and hash <> '' limit 1000`;
    console.log(`  new files of every account in the last minute (media worker): ${await latency(c, newVideos, () => [T0 - 60_000], 50)}`);
  }
}

/** md5 in JS, left 20 hex characters: the ids the seed wrote. */
const md5Left = (s: string) => createHash('md5').update(s).digest('hex').slice(0, 20);

async function otherTables(c: pg.Client): Promise<void> {
  console.log(`\n== the other tables that grow: ${ROWS.toLocaleString('en')} rows each ==`);
  const u = (i: string) => `left(md5('u' || (${i} % ${ACCOUNTS} + 1)), 20)`;
  const id = (p: string, i: string) => `left(md5('${p}' || ${i}), 20)`;
  const hex64 = (i: string) => `md5('c' || ${i}) || md5('d' || ${i})`;
  const seeds: [string, string][] = [
    ['events', `insert into events select ${id('e', 'i')}, ${u('i')}, case when i % 3 = 0 then 'TYPE_UPLOAD' else 'TYPE_VIEW' end, ${id('f', '(i + 10)')},
       'IMG_' || (20000 + i % 9000) || '.jpg', 'image/jpeg', '{}', ${T0} - i, ${T0} - i from generate_series(1, ${ROWS}) i`],
    ['tasks', `insert into tasks select ${id('t', 'i')}, ${u('i')}, 'offline', '${COMPLETE}', 'ubuntu-24.04.1-desktop-amd64.iso', 100, '',
       '{"url":"https://releases.example.com/24.04/ubuntu-24.04.1-desktop-amd64.iso?i=' || i || '","platform":"other"}',
       ${id('f', '(i + 10)')}, ${T0} - i, ${T0} - i, 6203355136, ${id('r', 'i')}, ${T0} - i from generate_series(1, ${ROWS}) i`],
    ['shares', `insert into shares select ${id('s', 'i')}, ${u('i')}, 'drive#share', '', 'Holiday photos 2026', 'drive#folder', 123456789, 42, 0, null,
       'OK', i % 100, i % 7, ${T0} - i, ${T0} - i, null, 0, '' from generate_series(1, ${ROWS}) i`],
    ['share_files', `insert into share_files select ${id('s', '((i + 1) / 2)')}, ${id('f', '(i + 10)')}, i % 2 from generate_series(1, ${ROWS}) i`],
    ['offline_sources', `insert into offline_sources select 'https://releases.example.com/pub/' || i || '/ubuntu-24.04.1-desktop-amd64.iso' || chr(10) || '"6703a1c4-' || i || '"',
       ${hex64('i')}, 6203355136, 'ubuntu-24.04.1-desktop-amd64.iso', 'application/octet-stream', ${T0} - i from generate_series(1, ${ROWS}) i`],
    ['attempt_limits', `insert into attempt_limits select 'signin|203.0.' || (i / 256 % 256) || '.' || (i % 256) || '|u:' || ${u('i')}, 3, ${T0} + 60000, ${T0} - i
       from generate_series(1, ${ROWS}) i`],
    ['blobs', `insert into blobs select ${hex64('i')}, (i::bigint * 104729) % 50000000, 1, ${T0} - i, ${T0} - i, md5('x' || i) || md5('y' || i) from generate_series(1, ${ROWS}) i`],
    ['sessions', `insert into sessions select ${id('S', 'i')}, ${u('i')}, '203.0.113.' || (i % 256), 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
       ${T0} - i, ${T0} - i, ${T0} + 2592000000, 'Chrome on Linux', null, null, null from generate_series(1, ${ROWS}) i`],
    ['refresh_tokens', `insert into refresh_tokens select ${id('R', 'i')}, ${u('i')}, md5('t' || i) || md5('T' || i), ${T0} + 2592000000, ${T0} - i, ${id('S', 'i')}, null, null
       from generate_series(1, ${ROWS}) i`],
    ['file_tombstones', `insert into file_tombstones select ${id('g', 'i')}, ${u('i')}, ${id('f', '(i / 10)')}, 'drive#file', ${T0} - i from generate_series(1, ${ROWS}) i`],
    ['audit_events', `insert into audit_events select ${id('a', 'i')}, ${T0} - i, 'signin', ${u('i')}, ${u('i')}, '203.0.113.' || (i % 256),
       '{"method":"password","client":"web"}' from generate_series(1, ${ROWS}) i`],
  ];
  for (const [table, sql] of seeds) {
    await c.query(sql);
    await c.query(`analyze ${table}`);
    printSize(table, await sizeOf(c, table));
  }
  // The console's storage health reads every blob row (admin-health.service.ts): its time per 100,000 blobs.
  const health = `select count(*), coalesce(sum(size), 0), coalesce(sum(case when ref_count > 0 then ref_count else 0 end), 0),
    coalesce(sum(case when ref_count > 0 then size * ref_count else 0 end), 0), coalesce(sum(case when ref_count <= 0 then 1 else 0 end), 0),
    coalesce(sum(case when ref_count <= 0 then size else 0 end), 0) from blobs`;
  console.log(`  the console's storage aggregate over ${ROWS.toLocaleString('en')} blobs: ${await latency(c, health, () => [], 20)}`);
  // /metrics counted every task by type and phase at each scrape: finished tasks were not counted, but failed ones
  // were, and stay until their owner deletes them. It now counts the day's failures (bench/jobs-metric.bench.ts).
  await c.query(`update tasks set phase = 'PHASE_TYPE_ERROR' where id < '8'`);
  const scrape = `select type, phase, count(*) from tasks where phase in ('PHASE_TYPE_PENDING', 'PHASE_TYPE_RUNNING', 'PHASE_TYPE_ERROR') group by type, phase`;
  const failed = Number((await c.query(`select count(*) n from tasks where phase = 'PHASE_TYPE_ERROR'`)).rows[0].n);
  console.log(`  the whole job count (what /metrics ran before) with ${failed.toLocaleString('en')} failed tasks kept: ${await latency(c, scrape, () => [], 20)}`);
}

await main();
