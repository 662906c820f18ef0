import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TokenResponse } from '@haul/shared';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';

/** The trigram name index (FTS5 on SQLite, pg_trgm on PostgreSQL) stays in step with the drive, and search through it answers as a scan would. */
describe('name search index', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let other: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul();
    t = await h.signUp();
    other = await h.signUp();
  });
  afterAll(() => h.destroy());

  const search = async (token: TokenResponse, contains: string, extra = '') => {
    const res = await h.api('GET', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent(JSON.stringify({ name: { contains }, trashed: { eq: false } }))}${extra}`, token.access_token);
    expect(res.status).toBe(200);
    return res.body.files.map((f: any) => f.name as string).sort();
  };

  /** The index itself holds what the table holds: FTS5's own check on SQLite, the index present on PostgreSQL. */
  const indexInStep = async () => {
    if (h.ctx.dialect === 'sqlite') {
      await sql`INSERT INTO files_name_fts (files_name_fts, rank) VALUES ('integrity-check', 1)`.execute(h.ctx.db);
    } else {
      const idx = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'files_name_trgm'`.execute(h.ctx.db);
      expect(idx.rows[0]?.indexdef).toMatch(/gin .*lower\(name\).*gin_trgm_ops/i);
    }
  };

  /** Rows the index alone finds for a phrase (SQLite), so a stale entry cannot hide behind the LIKE that rechecks. */
  const indexHits = async (phrase: string): Promise<string[]> => {
    const rows = await sql<{ name: string }>`SELECT f.name FROM files_name_fts x JOIN files f ON f.rowid = x.rowid
      WHERE files_name_fts MATCH ${`"${phrase}"`}`.execute(h.ctx.db);
    return rows.rows.map((r) => r.name).sort();
  };

  it('finds new files, a renamed file by its new name only, and nothing once deleted', async () => {
    const f = await h.putFile(t, '', 'Quarterly budget draft.xlsx', 'a');
    expect(await search(t, 'budget')).toEqual(['Quarterly budget draft.xlsx']);
    expect((await h.api('PATCH', `/drive/v1/files/${f.id}`, t.access_token, { name: 'Annual forecast final.xlsx' })).status).toBe(200);
    expect(await search(t, 'budget')).toEqual([]);
    expect(await search(t, 'forecast')).toEqual(['Annual forecast final.xlsx']);
    if (h.ctx.dialect === 'sqlite') {
      expect(await indexHits('budget')).toEqual([]);
      expect(await indexHits('forecast')).toEqual(['Annual forecast final.xlsx']);
    }
    await indexInStep();
    await h.api('POST', '/drive/v1/files:batchDelete', t.access_token, { ids: [f.id] });
    expect(await search(t, 'forecast')).toEqual([]);
    if (h.ctx.dialect === 'sqlite') expect(await indexHits('forecast')).toEqual([]);
    await indexInStep();
  });

  it('follows moves, trash and restore, and emptying the trash', async () => {
    const box = await mkdir(h, t.access_token, 'Receipts box');
    const dest = await mkdir(h, t.access_token, 'Archive');
    await h.putFile(t, box, 'receipt-hardware-store.pdf', 'b');
    expect(await search(t, 'hardware')).toEqual(['receipt-hardware-store.pdf']);
    await h.api('POST', '/drive/v1/files:batchMove', t.access_token, { ids: [box], to: { parent_id: dest } });
    expect(await search(t, 'hardware')).toEqual(['receipt-hardware-store.pdf']);
    const scoped = await h.api('GET', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent(JSON.stringify({ name: { contains: 'hardware' }, folder_id: { eq: dest } }))}`, t.access_token);
    expect(scoped.body.files.map((x: any) => x.name)).toEqual(['receipt-hardware-store.pdf']);
    await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [dest] });
    expect(await search(t, 'hardware')).toEqual([]);
    await h.api('POST', '/drive/v1/files:batchUntrash', t.access_token, { ids: [dest] });
    expect(await search(t, 'hardware')).toEqual(['receipt-hardware-store.pdf']);
    await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [dest] });
    await h.api('PATCH', '/drive/v1/files/trash:empty', t.access_token);
    expect(await search(t, 'hardware')).toEqual([]);
    if (h.ctx.dialect === 'sqlite') expect(await indexHits('hardware')).toEqual([]);
    await indexInStep();
  });

  it("never answers with another account's files", async () => {
    await h.putFile(other, '', 'secret-itinerary.txt', 'c');
    await h.putFile(t, '', 'public-itinerary.txt', 'd');
    expect(await search(t, 'itinerary')).toEqual(['public-itinerary.txt']);
    expect(await search(other, 'itinerary')).toEqual(['secret-itinerary.txt']);
    expect(await search(t, 'secret-itin')).toEqual([]);
  });

  it('matches CJK and accented names, in any ASCII letter case', async () => {
    await h.putFile(t, '', '東京タワーの写真.jpg', 'e');
    await h.putFile(t, '', 'Café Crème menu.pdf', 'f');
    expect(await search(t, 'タワー')).toEqual(['東京タワーの写真.jpg']);
    expect(await search(t, '京タ')).toEqual(['東京タワーの写真.jpg']);
    expect(await search(t, 'café crè')).toEqual(['Café Crème menu.pdf']);
    expect(await search(t, 'CAFÉ CRÈ')).toEqual(['Café Crème menu.pdf']);
    expect(await search(t, 'cafe')).toEqual([]);
  });

  it('answers 1- and 2-character queries, which have no trigram', async () => {
    await h.putFile(t, '', 'q7.txt', 'h');
    await h.putFile(t, '', 'xq.md', 'i');
    expect(await search(t, 'q7')).toEqual(['q7.txt']);
    expect(await search(t, 'Q7')).toEqual(['q7.txt']);
    expect(await search(t, 'xq')).toEqual(['xq.md']);
    const oneChar = await search(t, 'Q');
    expect(oneChar).toEqual(expect.arrayContaining(['q7.txt', 'xq.md']));
    expect(oneChar.every((n: string) => n.toLowerCase().includes('q'))).toBe(true);
    expect(await search(t, '東')).toEqual(['東京タワーの写真.jpg']);
  });

  it('takes %, _, quotes and backslashes in the query literally', async () => {
    await h.putFile(t, '', 'growth 100% done.txt', 'j');
    await h.putFile(t, '', 'growth 1000 done.txt', 'k');
    await h.putFile(t, '', 'snake_case_name.ts', 'l');
    await h.putFile(t, '', 'snakeXcaseXname.ts', 'm');
    await h.putFile(t, '', 'say "hello" there.txt', 'n');
    expect(await search(t, '100%')).toEqual(['growth 100% done.txt']);
    expect(await search(t, '0% d')).toEqual(['growth 100% done.txt']);
    expect(await search(t, '%')).toEqual(['growth 100% done.txt']);
    expect(await search(t, 'e_c')).toEqual(['snake_case_name.ts']);
    expect(await search(t, '_')).toEqual(['snake_case_name.ts']);
    expect(await search(t, '"hello"')).toEqual(['say "hello" there.txt']);
    // Names cannot hold a backslash; one in the query matches nothing rather than escaping what follows.
    expect(await search(t, 'say\\ "')).toEqual([]);
    expect(await search(t, '\\%')).toEqual([]);
  });

  it('pages through results in the asked order, as a scan would', async () => {
    const folder = await mkdir(h, t.access_token, 'Pager');
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const name = `page-token-probe ${String.fromCharCode(103 - i)}.txt`;
      await h.putFile(t, folder, name, `p${i}`);
      made.push(name);
    }
    await h.putFile(t, folder, 'unrelated.txt', 'z');
    for (const order of ['NAME_ASC', 'NAME_DESC', 'MODIFY_TIME_DESC']) {
      const seen: string[] = [];
      let token = '';
      do {
        const res = await h.api(
          'GET',
          `/drive/v1/files?parent_id=*&limit=3&order=${order}&filters=${encodeURIComponent(JSON.stringify({ name: { contains: 'token-probe' } }))}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
          t.access_token,
        );
        expect(res.status).toBe(200);
        seen.push(...res.body.files.map((f: any) => f.name));
        token = res.body.next_page_token;
      } while (token);
      const expected = order === 'NAME_ASC' ? [...made].sort() : order === 'NAME_DESC' ? [...made].sort().reverse() : [...made].reverse();
      expect(seen).toEqual(expected);
    }
  });
});
