/**
 * The "raw" reference of the load benchmark: node:http answering a folder's keyset page (the query Haul builds for a
 * folder in the default order, as listing.bench.ts runs it) as JSON rows, and nothing else: no token check, no
 * presenter, no hooks. Its own process, like Haul's, so the two are loaded alike:
 *   node --import tsx bench/raw-listing-server.ts <port> <SQLite file | postgres:// URL>
 * GET /files?u=<user>&p=<folder>&n=<limit>[&t=<modified_time>&i=<id>] answers {"files":[…]}; it prints "ready".
 * GET /delay answers its event-loop delay since the last /delay (seconds, sampled as prom-client samples Haul's).
 */
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import pg from 'pg';

type Page = (user: string, parent: string, limit: number, after: [string, string] | null) => Promise<unknown[]>;

const WHERE = `user_id = ? AND parent_id = ? AND trashed = 0 AND phase IN ('PHASE_TYPE_COMPLETE')`;
const ORDER = 'ORDER BY modified_time DESC, id DESC LIMIT ?';

function sqlitePage(file: string): Page {
  const db = new SQLite(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  const first = db.prepare(`SELECT * FROM files WHERE ${WHERE} ${ORDER}`);
  const next = db.prepare(`SELECT * FROM files WHERE ${WHERE} AND (modified_time, id) < (?, ?) ${ORDER}`);
  return async (u, p, n, after) => (after ? next.all(u, p, Number(after[0]), after[1], n) : first.all(u, p, n));
}

function postgresPage(url: string): Page {
  // The same pool size as Haul's (db/database.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  let i = 0;
  const text = (bound: boolean) =>
    `SELECT * FROM files WHERE ${WHERE.replace(/\?/g, () => `$${++i}`)}${bound ? ` AND (modified_time, id) < ($${++i}, $${++i})` : ''} ${ORDER.replace('?', `$${++i}`)}`;
  const first = text(false);
  i = 0;
  const next = text(true);
  return async (u, p, n, after) =>
    (after
      ? await pool.query({ name: 'next', text: next, values: [u, p, after[0], after[1], n] })
      : await pool.query({ name: 'first', text: first, values: [u, p, n] })
    ).rows;
}

const [port, database] = process.argv.slice(2);
const page = database!.startsWith('postgres') ? postgresPage(database!) : sqlitePage(database!);
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
createServer((req, res) => {
  if (req.url === '/delay') {
    const p = (n: number) => delay.percentile(n) / 1e9;
    res.end(JSON.stringify({ p50: p(50), p99: p(99), max: delay.max / 1e9 }));
    return delay.reset();
  }
  const q = new URL(req.url!, 'http://x').searchParams;
  const t = q.get('t');
  page(q.get('u')!, q.get('p')!, Number(q.get('n') ?? 100), t ? [t, q.get('i')!] : null).then(
    (files) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ files }));
    },
    (err: Error) => {
      res.writeHead(500).end(err.message);
    },
  );
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
