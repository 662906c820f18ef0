/**
 * Incremental sync pages by (change time, id), and the server merges files and deletions in JavaScript, in byte order.
 * The database must order ids the same way whatever its collation: on a PostgreSQL database created with ICU's root
 * collation (or en_US.UTF-8), "a-c" sorts after "a_B" and mixed case interleaves, and before migration 0030 items
 * sharing a change time were skipped or repeated between pages.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.mjs';
import { newId } from '../src/lib/ids.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const CHARS = ['A', 'a', 'B', 'b', '-', '_', 'Z', 'z', '0', '9'];
/** 100 ids whose collated order differs from their byte order: each pair of CHARS at the front, padded to 20. */
const IDS = CHARS.flatMap((x) => CHARS.map((y) => `${x}${y}${x === '-' || y === '_' ? 'a' : 'A'}`.padEnd(20, 'k')));
const byteOrder = (ids: string[]) => [...ids].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));

/** Writes 70 files and 30 deletions of `userId` that all changed at `t` (the deletions share it with the files). */
async function seedSameTime(h: TestHaul, userId: string, t: number): Promise<void> {
  const files = IDS.slice(0, 70).map((id, i) => ({
    id,
    user_id: userId,
    parent_id: '',
    name: `same time ${i}.txt`,
    kind: 'drive#file',
    size: i,
    mime_type: 'text/plain',
    file_extension: '.txt',
    hash: '',
    star: 0,
    trashed: 0,
    phase: 'PHASE_TYPE_COMPLETE',
    sensitive: 0,
    params: '{}',
    created_time: t,
    modified_time: t,
    changed_time: t,
  }));
  await h.ctx.db.insertInto('files').values(files as never).execute();
  const gone = IDS.slice(70).map((id) => ({ file_id: id, user_id: userId, parent_id: '', kind: 'drive#file', deleted_time: t }));
  await h.ctx.db.insertInto('file_tombstones').values(gone).execute();
}

/** Every id an incremental sync from before `t` returns, pages of 7, in the order they came. */
async function syncAll(h: TestHaul, token: string, t: number): Promise<{ ids: string[]; pages: number }> {
  const filters = encodeURIComponent(JSON.stringify({ modified_time: { gt: new Date(t - 1000).toISOString() } }));
  const ids: string[] = [];
  let pageToken = '';
  let pages = 0;
  do {
    const url = `/drive/v1/files?parent_id=*&limit=7&filters=${filters}${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`;
    const res = await h.api('GET', url, token);
    expect(res.status).toBe(200);
    ids.push(...res.body.files.map((f: { id: string }) => f.id));
    pageToken = res.body.next_page_token;
    pages++;
  } while (pageToken && pages < 100);
  return { ids, pages };
}

async function expectEachOnce(h: TestHaul): Promise<void> {
  const clock = h.ctx.clock as ManualClock;
  const tok = await h.signUp();
  const t = clock.now() + 60_000;
  await seedSameTime(h, tok.sub, t);
  clock.advance(120_000);
  const { ids, pages } = await syncAll(h, tok.access_token, t);
  // Exactly once each, in byte order (the order the cursor and the merge assume), in full pages but the last.
  expect(ids).toEqual(byteOrder(IDS));
  expect(pages).toBe(Math.ceil(IDS.length / 7));
}

describe('sync paging under the database collation', () => {
  it('returns every file and deletion sharing one change time exactly once, pages of 7 (test database)', async () => {
    const h = await startTestHaul({}, new ManualClock());
    try {
      await expectEachOnce(h);
    } finally {
      await h.destroy();
    }
  });

  describe('PostgreSQL database whose default collation is not byte order', () => {
    let cluster: PgCluster | null = null;
    let admin = '';
    let url = '';
    let name = '';

    beforeAll(async () => {
      if (process.env.HAUL_TEST_DATABASE_URL) admin = process.env.HAUL_TEST_DATABASE_URL;
      else {
        cluster = await startPgCluster();
        admin = cluster.url;
      }
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      try {
        // ICU's root collation where PostgreSQL has ICU (Debian's does), else the libc en_US.UTF-8 locale.
        const icu = (await c.query(`SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'`)).rows.length > 0;
        name = `haul_t_coll_${newId().toLowerCase().replace(/[^a-z0-9]/g, '')}`;
        await c.query(
          icu
            ? `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'und' LOCALE 'C'`
            : `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE 'en_US.UTF-8'`,
        );
      } finally {
        await c.end();
      }
      const u = new URL(admin);
      u.pathname = `/${name}`;
      url = u.toString();
    });

    afterAll(async () => {
      try {
        if (name) {
          const c = new pg.Client({ connectionString: admin });
          await c.connect();
          await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await c.end();
        }
      } finally {
        cluster?.stop();
      }
    });

    it('is a database that orders text otherwise than by bytes', async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const r = await c.query(`SELECT array_agg(x ORDER BY x) AS xs FROM unnest($1::text[]) AS x`, [IDS]);
        expect(r.rows[0].xs).not.toEqual(byteOrder(IDS));
      } finally {
        await c.end();
      }
    });

    it('returns every file and deletion sharing one change time exactly once, pages of 7', async () => {
      const h = await startTestHaul({ databaseUrl: url }, new ManualClock());
      try {
        await expectEachOnce(h);
      } finally {
        await h.destroy();
      }
    });
  });
});
