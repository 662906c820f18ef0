/**
 * The database round trips of one folder listing, counted through the database layer: the token's session and the
 * run-time settings in one query, then the page (and, for an empty page of a folder, whether the folder is the
 * caller's). What that one query must still refuse: an ended session, a disabled account, another account's folder.
 * A settings change written by another process holds from the next listing on.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { setDisabled } from '../src/accounts/accounts.service.js';
import { watchQueries } from '../src/db/database.js';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';

describe('a listing\'s round trips', () => {
  let h: TestHaul;
  let me: TokenResponse;
  let folder: string;

  /** Status, body and the SQL of every query one listing ran. */
  const list = async (token: string, query: string) => {
    const sql: string[] = [];
    const stop = watchQueries(h.ctx.db, (s) => sql.push(s));
    try {
      const res = await h.api('GET', `/drive/v1/files?${query}`, token);
      return { ...res, sql };
    } finally {
      stop();
    }
  };

  beforeAll(async () => {
    h = await startTestHaul();
    me = await h.signUp();
    folder = await mkdir(h, me.access_token, 'Photos');
    for (let i = 0; i < 5; i++) await h.putFile(me, folder, `p${i}.jpg`, `bytes ${i}`);
    // The first call of a token verifies its signature and may warm what a process reads once; counted are the next.
    expect((await list(me.access_token, `parent_id=${folder}`)).status).toBe(200);
  });
  afterAll(() => h.destroy());

  it('a page, and the page after it, take two queries each: the session with the settings, then the rows', async () => {
    const first = await list(me.access_token, `parent_id=${folder}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.files).toHaveLength(2);
    expect(first.sql).toHaveLength(2);
    expect(first.sql[0]).toMatch(/sessions/);
    expect(first.sql[0]).toMatch(/system_kv/);
    expect(first.sql[1]).toMatch(/from "files"/);

    const next = await list(me.access_token, `parent_id=${folder}&limit=2&page_token=${encodeURIComponent(first.body.next_page_token)}`);
    expect(next.status).toBe(200);
    expect(next.body.files).toHaveLength(2);
    expect(next.sql).toHaveLength(2);

    if (h.ctx.dialect === 'postgres') {
      // The session query went as a named statement (db/named-statements.ts), prepared on the connection the pool
      // hands out again (pg's pool reuses its most recently released connection).
      const { rows } = await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(h.ctx.db);
      expect(rows.filter((r) => /^haul_\d+$/.test(r.name) && /"sessions"/.test(r.statement))).toHaveLength(1);
      expect(rows.filter((r) => /^haul_\d+$/.test(r.name) && /from "files"/.test(r.statement))).not.toHaveLength(0);
    }

    // The root and the whole drive the same.
    expect((await list(me.access_token, 'parent_id=')).sql).toHaveLength(2);
    expect((await list(me.access_token, 'parent_id=*&limit=3')).sql).toHaveLength(2);
  });

  it('an empty page of a folder adds the one lookup that tells "empty" from "not yours"', async () => {
    const empty = await mkdir(h, me.access_token, 'Empty');
    const res = await list(me.access_token, `parent_id=${empty}`);
    expect(res.status).toBe(200);
    expect(res.body.files).toEqual([]);
    expect(res.sql).toHaveLength(3);

    const other = await h.signUp();
    const theirs = await list(other.access_token, `parent_id=${folder}`);
    expect(theirs.status).toBe(404);
    expect(theirs.sql).toHaveLength(3);
  });

  it('the one query still ends a signed-out session and refuses a disabled account', async () => {
    const gone = await h.signUp();
    expect((await list(gone.access_token, 'parent_id=')).status).toBe(200);
    expect((await h.api('DELETE', '/v1/user/sessions', gone.access_token)).status).toBe(200);
    const after = await list(gone.access_token, 'parent_id=');
    expect(after.status).toBe(401);
    // Refused on the session query: the page is never read.
    expect(after.sql).toHaveLength(1);

    const off = await h.signUp();
    expect((await list(off.access_token, 'parent_id=')).status).toBe(200);
    await setDisabled(h.ctx, off.sub, true);
    expect((await list(off.access_token, 'parent_id=')).status).toBe(401);
  });

  it('a page still answers after another process adds a column to the files table under its prepared statement', async () => {
    const page = async () => {
      const res = await list(me.access_token, `parent_id=${folder}&limit=2`);
      expect(res.status).toBe(200);
      return res.body.files.map((f: { name: string }) => f.name);
    };
    const before = await page();
    // As a newer version's migration does while this process runs: PostgreSQL's prepared `SELECT *` would now fail
    // with "cached plan must not change result type" (db/named-statements.ts runs it again, then prepares it anew).
    await sql`ALTER TABLE files ADD COLUMN added_later integer`.execute(h.ctx.db);
    expect(await page()).toEqual(before);
    expect(await page()).toEqual(before);
  });

  it('a run-time setting another process wrote holds from the next listing on', async () => {
    const before = h.ctx.config.siteName;
    const value = JSON.stringify({ site_name: `${before} renamed` });
    // As another process's console change lands: only the row changes, nothing in this process is told.
    await h.ctx.db
      .insertInto('system_kv')
      .values({ key: 'run_time_settings', value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
    const res = await list(me.access_token, `parent_id=${folder}`);
    expect(res.status).toBe(200);
    expect(res.sql).toHaveLength(2);
    expect(h.ctx.config.siteName).toBe(`${before} renamed`);
  });
});
