import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { mkdir, names, startTestHaul, type TestHaul } from './helper.js';

describe('files API', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let tok: string;
  beforeAll(async () => {
    h = await startTestHaul();
    t = await h.signUp();
    tok = t.access_token;
  });
  afterAll(() => h.destroy());

  it('starts with an empty drive', async () => {
    const res = await h.api('GET', '/drive/v1/files?parent_id=', tok);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'drive#fileList', files: [], next_page_token: '' });
    expect(Date.parse(res.body.sync_time)).not.toBeNaN();
  });

  it('creates folders with the wire fields and refuses a duplicate name', async () => {
    const res = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#folder', name: 'Photos', parent_id: '' });
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ kind: 'drive#folder', name: 'Photos', parent_id: '', size: '0', star: 0, trashed: false, phase: 'PHASE_TYPE_COMPLETE', user_id: t.sub });
    const dup = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#folder', name: 'Photos', parent_id: '' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'file_duplicated_name', error_code: 6 });
    expect(await names(h, tok)).toEqual(['Photos']);
  });

  it('normalises names to NFC and refuses bad names', async () => {
    const decomposed = 'Cafe\u0301';
    const res = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#folder', name: decomposed, parent_id: '' });
    expect(res.body.file.name).toBe('Caf\u00e9');
    for (const bad of ['', '   ', '.', '..', 'a/b', 'a\\b', 'a\u0000b', 'tab\there', 'x'.repeat(256), '\u00e9'.repeat(128)]) {
      const r = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#folder', name: bad, parent_id: '' });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error).toBe('invalid_argument');
    }
    expect((await names(h, tok)).sort()).toEqual(['Café', 'Photos']);
  });

  it('renames, and refuses a rename onto a sibling name', async () => {
    const a = await mkdir(h, tok, 'Alpha');
    await mkdir(h, tok, 'Beta');
    const r = await h.api('PATCH', `/drive/v1/files/${a}`, tok, { name: 'Gamma' });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('Gamma');
    const clash = await h.api('PATCH', `/drive/v1/files/${a}`, tok, { name: 'Beta' });
    expect(clash.status).toBe(409);
    expect((await h.api('GET', `/drive/v1/files/${a}`, tok)).body.name).toBe('Gamma');
  });

  it('stars and unstars, and filters by the STAR tag', async () => {
    const id = await mkdir(h, tok, 'Fav');
    expect((await h.api('POST', '/drive/v1/files:star', tok, { ids: [id] })).body.task_id).toBeTruthy();
    const f = (await h.api('GET', `/drive/v1/files/${id}`, tok)).body;
    expect(f.star).toBe(1);
    expect(f.tags[0]).toMatchObject({ name: 'STAR', type: 0 });
    const starred = await names(h, tok, '*', `&filters=${encodeURIComponent('{"system_tag":{"in":"STAR"}}')}`);
    expect(starred).toEqual(['Fav']);
    await h.api('POST', '/drive/v1/files:unstar', tok, { ids: [id] });
    expect(await names(h, tok, '*', `&filters=${encodeURIComponent('{"system_tag":{"in":"STAR"}}')}`)).toEqual([]);
  });

  it('moves and copies, renaming on a clash, and refuses a move into itself', async () => {
    const src = await mkdir(h, tok, 'Src');
    const sub = await mkdir(h, tok, 'Sub', src);
    const dst = await mkdir(h, tok, 'Dst');
    await h.putFile(t, sub, 'a.txt', 'hello');
    await mkdir(h, tok, 'Sub', dst);

    const intoSelf = await h.api('POST', '/drive/v1/files:batchMove', tok, { ids: [src], to: { parent_id: sub } });
    expect(intoSelf.status).toBe(400);
    expect((await h.api('POST', '/drive/v1/files:batchMove', tok, { ids: [src], to: { parent_id: src } })).status).toBe(400);

    const copy = await h.api('POST', '/drive/v1/files:batchCopy', tok, { ids: [sub], to: { parent_id: dst } });
    expect(copy.status).toBe(200);
    expect((await names(h, tok, dst)).sort()).toEqual(['Sub', 'Sub (1)']);
    const copiedSub = copy.body.file_ids[0];
    expect(await names(h, tok, copiedSub)).toEqual(['a.txt']);
    // The original is untouched.
    expect(await names(h, tok, sub)).toEqual(['a.txt']);

    const move = await h.api('POST', '/drive/v1/files:batchMove', tok, { ids: [sub], to: { parent_id: dst } });
    expect(move.status).toBe(200);
    expect(await names(h, tok, src)).toEqual([]);
    expect((await names(h, tok, dst)).sort()).toEqual(['Sub', 'Sub (1)', 'Sub (2)']);
  });

  it('copies cost metadata only: one blob, counted twice', async () => {
    const folder = await mkdir(h, tok, 'Blobby');
    const f = await h.putFile(t, folder, 'big.bin', 'x'.repeat(1000));
    const before = await h.ctx.db.selectFrom('blobs').selectAll().where('hash', '=', f.hash).executeTakeFirstOrThrow();
    expect(before.ref_count).toBe(1);
    await h.api('POST', '/drive/v1/files:batchCopy', tok, { ids: [folder], to: { parent_id: '' } });
    const after = await h.ctx.db.selectFrom('blobs').selectAll().where('hash', '=', f.hash).executeTakeFirstOrThrow();
    expect(after.ref_count).toBe(2);
    expect((await h.ctx.db.selectFrom('blobs').select('hash').execute()).filter((b) => b.hash === f.hash)).toHaveLength(1);
  });

  it('refuses a copy beyond the storage quota', async () => {
    const small = await startTestHaul({ defaultQuotaBytes: 1500 });
    try {
      const u = await small.signUp();
      const f = await small.putFile(u, '', 'one.bin', 'y'.repeat(1000));
      const res = await small.api('POST', '/drive/v1/files:batchCopy', u.access_token, { ids: [f.id], to: { parent_id: '' } });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('file_space_not_enough');
      expect(await names(small, u.access_token)).toEqual(['one.bin']);
    } finally {
      await small.destroy();
    }
  });

  it('lets only as many copies made at once as the quota fits', async () => {
    const small = await startTestHaul({ defaultQuotaBytes: 4500 });
    try {
      const u = await small.signUp();
      const f = await small.putFile(u, '', 'one.bin', 'y'.repeat(1000));
      // Room for three copies besides the original, asked for ten times at once.
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          small.api('POST', '/drive/v1/files:batchCopy', u.access_token, { ids: [f.id], to: { parent_id: '' } }),
        ),
      );
      expect(answers.filter((a) => a.status === 200), JSON.stringify(answers.map((a) => a.body.error))).toHaveLength(3);
      for (const a of answers.filter((r) => r.status !== 200)) expect(a.body.error).toBe('file_space_not_enough');
      expect(await names(small, u.access_token)).toHaveLength(4);
    } finally {
      await small.destroy();
    }
  });

  it('trashes a folder with its contents, lists only the trashed root, restores all', async () => {
    const box = await mkdir(h, tok, 'Box');
    const inner = await mkdir(h, tok, 'Inner', box);
    await h.putFile(t, inner, 'deep.txt', 'deep');
    const tr = await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [box] });
    expect(tr.status).toBe(200);
    expect(await names(h, tok)).not.toContain('Box');
    const trash = await h.api('GET', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"trashed":{"eq":true}}')}`, tok);
    expect(trash.body.files.map((f: any) => f.name)).toEqual(['Box']);
    expect(trash.body.files[0].trashed).toBe(true);
    // delete_time says when the purge will happen (30 days by default).
    const remaining = Date.parse(trash.body.files[0].delete_time) - Date.now();
    expect(remaining).toBeGreaterThan(29 * 86_400_000);
    // The trashed folder's contents are not in any live listing.
    expect(await names(h, tok, '*', `&filters=${encodeURIComponent('{"name":{"contains":"deep"}}')}`)).toEqual([]);
    // A trashed folder cannot receive anything.
    const into = await h.api('POST', '/drive/v1/files', tok, { kind: 'drive#folder', name: 'x', parent_id: box });
    expect(into.body.error).toBe('file_in_recycle_bin');
    expect(into.body.error_code).toBe(9);

    await h.api('POST', '/drive/v1/files:batchUntrash', tok, { ids: [box] });
    expect(await names(h, tok)).toContain('Box');
    expect(await names(h, tok, inner)).toEqual(['deep.txt']);
  });

  it('restores to the root when the original folder is gone, renaming on a clash', async () => {
    const parent = await mkdir(h, tok, 'Parent');
    const child = await mkdir(h, tok, 'Loose', parent);
    await mkdir(h, tok, 'Loose');
    await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [child] });
    await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [parent] });
    await h.api('POST', '/drive/v1/files:batchUntrash', tok, { ids: [child] });
    const restored = (await h.api('GET', `/drive/v1/files/${child}`, tok)).body;
    expect(restored).toMatchObject({ parent_id: '', name: 'Loose (1)', trashed: false });
  });

  it('deletes forever, frees storage, and empties the trash', async () => {
    const before = Number((await h.api('GET', '/drive/v1/about', tok)).body.quota.usage);
    const f = await h.putFile(t, '', 'gone.bin', 'z'.repeat(5000));
    const mid = await h.api('GET', '/drive/v1/about', tok);
    expect(Number(mid.body.quota.usage)).toBe(before + 5000);
    await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [f.id] });
    const inTrash = await h.api('GET', '/drive/v1/about', tok);
    expect(Number(inTrash.body.quota.usage)).toBe(before + 5000);
    expect(Number(inTrash.body.quota.usage_in_trash)).toBeGreaterThanOrEqual(5000);
    await h.api('PATCH', '/drive/v1/files/trash:empty', tok);
    expect((await h.api('GET', `/drive/v1/files/${f.id}`, tok)).status).toBe(404);
    const after = await h.api('GET', '/drive/v1/about', tok);
    expect(Number(after.body.quota.usage)).toBeLessThan(before + 5000);
    const trash = await h.api('GET', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent('{"trashed":{"eq":true}}')}`, tok);
    expect(trash.body.files).toEqual([]);
    const blob = await h.ctx.db.selectFrom('blobs').selectAll().where('hash', '=', f.hash).executeTakeFirst();
    expect(blob?.ref_count ?? 0).toBe(0);
  });

  it('gives the ancestor chain for breadcrumbs', async () => {
    const a = await mkdir(h, tok, 'A1');
    const b = await mkdir(h, tok, 'B1', a);
    const c = await mkdir(h, tok, 'C1', b);
    const res = await h.api('GET', `/drive/v1/files/${c}/ancestors`, tok);
    expect(res.body.ancestors).toEqual([
      { id: a, name: 'A1', parent_id: '' },
      { id: b, name: 'B1', parent_id: a },
      { id: c, name: 'C1', parent_id: b },
    ]);
  });
});
