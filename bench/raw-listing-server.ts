/**
 * The "raw" reference of the listing and load benchmarks: node:http answering a folder's keyset page (the query Haul
 * builds for a folder in the default order, as listing.bench.ts runs it) as JSON rows, and nothing else: no
 * presenter, no hooks. Given the token key (`rawListingServer`'s `tokenKey`), it checks a bearer token the cheapest
 * correct way: the HS256 signature and expiry once per token (kept, as Haul keeps them), and on every request that
 * the token's session is live and its account neither disabled nor deleted (one indexed query), without which a
 * sign-out would not end the token. The load benchmark runs it as its own process, like Haul's, with the token key
 * (base64) in HAUL_RAW_TOKEN_KEY:
 *   node --import tsx bench/raw-listing-server.ts <port> <SQLite file | postgres:// URL>
 * GET /files?u=<user>&p=<folder>&n=<limit>[&t=<modified_time>&i=<id>] answers {"files":[…]}; it prints "ready".
 * With a token key the user is the token's, not `u`. GET /delay answers its event-loop delay since the last /delay
 * (seconds, sampled as prom-client samples Haul's).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import pg from 'pg';

type Page = (user: string, parent: string, limit: number, after: [string, string] | null) => Promise<unknown[]>;
/** Whether a session of the user is live and the account usable. */
type Live = (user: string, session: string, now: number) => Promise<boolean>;
type Source = { page: Page; live: Live; end: () => Promise<void> };

const LIVE = `SELECT 1 FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.id = ? AND sessions.user_id = ?
  AND sessions.expires_at > ? AND users.disabled_at IS NULL AND users.deleted_at IS NULL`;

const WHERE = `user_id = ? AND parent_id = ? AND trashed = 0 AND phase IN ('PHASE_TYPE_COMPLETE')`;
const ORDER = 'ORDER BY modified_time DESC, id DESC LIMIT ?';

function sqlitePage(file: string): Source {
  const db = new SQLite(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  const session = db.prepare(LIVE);
  const first = db.prepare(`SELECT * FROM files WHERE ${WHERE} ${ORDER}`);
  const next = db.prepare(`SELECT * FROM files WHERE ${WHERE} AND (modified_time, id) < (?, ?) ${ORDER}`);
  return {
    page: async (u, p, n, after) => (after ? next.all(u, p, Number(after[0]), after[1], n) : first.all(u, p, n)),
    live: async (u, sid, now) => !!session.get(sid, u, now),
    end: async () => void db.close(),
  };
}

function postgresPage(url: string): Source {
  // The same pool size as Haul's (db/database.ts).
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  let i = 0;
  const text = (bound: boolean) =>
    `SELECT * FROM files WHERE ${WHERE.replace(/\?/g, () => `$${++i}`)}${bound ? ` AND (modified_time, id) < ($${++i}, $${++i})` : ''} ${ORDER.replace('?', `$${++i}`)}`;
  const first = text(false);
  i = 0;
  const next = text(true);
  let k = 0;
  const session = LIVE.replace(/\?/g, () => `$${++k}`);
  return {
    page: async (u, p, n, after) =>
      (after
        ? await pool.query({ name: 'next', text: next, values: [u, p, after[0], after[1], n] })
        : await pool.query({ name: 'first', text: first, values: [u, p, n] })
      ).rows,
    live: async (u, sid, now) => (await pool.query({ name: 'live', text: session, values: [sid, u, now] })).rowCount! > 0,
    end: () => pool.end(),
  };
}

interface Claims {
  sub: string;
  sid: string;
  exp: number;
}

/** An HS256 JWT's claims when its signature holds and it has not expired; null otherwise. */
function verifyJwt(token: string, key: Uint8Array, now: number): Claims | null {
  const [head, body, sig] = token.split('.');
  if (!head || !body || !sig) return null;
  const want = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const got = Buffer.from(sig, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
  if (JSON.parse(Buffer.from(head, 'base64url').toString()).alg !== 'HS256') return null;
  const c = JSON.parse(Buffer.from(body, 'base64url').toString()) as Claims;
  return typeof c.sub === 'string' && typeof c.sid === 'string' && c.exp > now / 1000 ? c : null;
}

/** The reference server; with `tokenKey`, every listing needs a valid bearer token of a live session. */
export function rawListingServer(database: string, tokenKey?: Uint8Array): Server {
  const { page, live, end } = database.startsWith('postgres') ? postgresPage(database) : sqlitePage(database);
  const checked = new Map<string, Claims>();
  const caller = async (header: string | undefined): Promise<string | null> => {
    if (!tokenKey) return '';
    const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
    const now = Date.now();
    let claims = checked.get(token);
    if (!claims || claims.exp <= now / 1000) {
      const fresh = verifyJwt(token, tokenKey, now);
      if (!fresh) return null;
      checked.set(token, (claims = fresh));
    }
    return (await live(claims.sub, claims.sid, now)) ? claims.sub : null;
  };
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const server = createServer((req, res) => {
    if (req.url === '/delay') {
      const p = (n: number) => delay.percentile(n) / 1e9;
      res.end(JSON.stringify({ p50: p(50), p99: p(99), max: delay.max / 1e9 }));
      return delay.reset();
    }
    const q = new URL(req.url!, 'http://x').searchParams;
    const t = q.get('t');
    caller(req.headers.authorization)
      .then((user) => {
        if (user === null) return void res.writeHead(401).end();
        return page(user || q.get('u')!, q.get('p')!, Number(q.get('n') ?? 100), t ? [t, q.get('i')!] : null).then((files) => {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ files }));
        });
      })
      .catch((err: Error) => res.writeHead(500).end(err.message));
  });
  // Closing the server lets go of the database too.
  return server.on('close', () => void end());
}

if (import.meta.filename === process.argv[1]) {
  const [port, database] = process.argv.slice(2);
  // HAUL_RAW_TOKEN_KEY (Haul's token key, base64): check bearer tokens as Haul must.
  const key = process.env.HAUL_RAW_TOKEN_KEY;
  rawListingServer(database!, key ? new Uint8Array(Buffer.from(key, 'base64')) : undefined).listen(Number(port), '127.0.0.1', () => console.log('ready'));
}
