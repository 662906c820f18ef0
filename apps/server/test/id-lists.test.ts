/**
 * Statements on a list of ids find rows by primary key and check the owner on each (userFilesIn): another account's
 * ids in the list must change nothing and disclose nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

describe('lists of file ids', () => {
  let h: TestHaul;
  let mine: string[];
  let theirs: string;
  let tok: string;
  let otherTok: string;

  beforeAll(async () => {
    h = await startTestHaul();
    const a = await h.signUp();
    const b = await h.signUp();
    tok = a.access_token;
    otherTok = b.access_token;
    mine = [];
    for (const n of ['one.txt', 'two.txt', 'three.txt']) mine.push((await h.putFile(a, '', n, n)).id);
    theirs = (await h.putFile(b, '', 'secret.txt', 'secret')).id;
  });
  afterAll(() => h.destroy());

  const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));

  it('lists by ids only the caller\'s files, in the asked order', async () => {
    const res = await h.api('GET', `/drive/v1/files?parent_id=*&order=NAME_ASC&filters=${q({ id: { in: [...mine, theirs] } })}`, tok);
    expect(res.status).toBe(200);
    expect(res.body.files.map((f: { name: string }) => f.name)).toEqual(['one.txt', 'three.txt', 'two.txt']);
    // Paged by the same ids: two pages of 2 and 1, nothing repeated.
    const p1 = await h.api('GET', `/drive/v1/files?parent_id=*&limit=2&order=NAME_ASC&filters=${q({ id: { in: mine } })}`, tok);
    const p2 = await h.api('GET', `/drive/v1/files?parent_id=*&limit=2&order=NAME_ASC&filters=${q({ id: { in: mine } })}&page_token=${encodeURIComponent(p1.body.next_page_token)}`, tok);
    expect([...p1.body.files, ...p2.body.files].map((f: { name: string }) => f.name)).toEqual(['one.txt', 'three.txt', 'two.txt']);
    expect(p2.body.next_page_token).toBe('');
    const none = await h.api('GET', `/drive/v1/files?parent_id=*&filters=${q({ id: { in: [theirs] } })}`, tok);
    expect(none.body.files).toEqual([]);
  });

  it('stars the caller\'s files, and with another account\'s id among them stars nothing', async () => {
    const refused = await h.api('POST', '/drive/v1/files:star', tok, { ids: [mine[0], theirs] });
    expect(refused.status).toBe(404);
    expect((await h.api('GET', `/drive/v1/files/${theirs}`, otherTok)).body.star).toBe(0);
    expect((await h.api('GET', `/drive/v1/files/${mine[0]}`, tok)).body.star).toBe(0);
    expect((await h.api('POST', '/drive/v1/files:star', tok, { ids: [mine[0], mine[1], mine[0]] })).status).toBe(200);
    const starred = await h.api('GET', `/drive/v1/files?parent_id=*&order=NAME_ASC&filters=${q({ system_tag: { in: 'STAR' } })}`, tok);
    expect(starred.body.files.map((f: { name: string }) => f.name)).toEqual(['one.txt', 'two.txt']);
    expect((await h.api('GET', `/drive/v1/files/${theirs}`, otherTok)).body.star).toBe(0);
  });
});
