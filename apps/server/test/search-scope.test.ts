import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { mkdir, startTestHaul, type TestHaul } from './helper.js';
import { searchScopeFolders } from '../src/files/search-scope.js';

describe('search inside a folder', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let other: TokenResponse;
  let top: string;
  let deep: string;
  beforeAll(async () => {
    h = await startTestHaul();
    t = await h.signUp();
    other = await h.signUp();
    top = await mkdir(h, t.access_token, 'Projects');
    const mid = await mkdir(h, t.access_token, 'Haul', top);
    deep = await mkdir(h, t.access_token, 'Notes', mid);
    await h.putFile(t, deep, 'report-nested.txt', 'a');
    await h.putFile(t, top, 'report-top.txt', 'b');
    await h.putFile(t, '', 'report-outside.txt', 'c');
    const elsewhere = await mkdir(h, t.access_token, 'Elsewhere');
    await h.putFile(t, elsewhere, 'report-elsewhere.txt', 'd');
  });
  afterAll(() => h.destroy());

  const search = (token: string, filters: object) =>
    h.api('GET', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent(JSON.stringify(filters))}`, token);

  it('finds items anywhere below the folder and nothing outside it', async () => {
    const res = await search(t.access_token, { name: { contains: 'report' }, folder_id: { eq: top } });
    expect(res.status).toBe(200);
    expect(res.body.files.map((f: any) => f.name).sort()).toEqual(['report-nested.txt', 'report-top.txt']);
    // The whole drive still finds all four.
    const all = await search(t.access_token, { name: { contains: 'report' } });
    expect(all.body.files).toHaveLength(4);
  });

  it('keeps to a deeper folder when started there, and pages through it', async () => {
    const res = await search(t.access_token, { name: { contains: 'report' }, folder_id: { eq: deep } });
    expect(res.body.files.map((f: any) => f.name)).toEqual(['report-nested.txt']);
    const p1 = await h.api('GET', `/drive/v1/files?parent_id=*&limit=1&filters=${encodeURIComponent(JSON.stringify({ name: { contains: 'report' }, folder_id: { eq: top } }))}`, t.access_token);
    expect(p1.body.files).toHaveLength(1);
    const p2 = await h.api('GET', `/drive/v1/files?parent_id=*&limit=1&page_token=${p1.body.next_page_token}&filters=${encodeURIComponent(JSON.stringify({ name: { contains: 'report' }, folder_id: { eq: top } }))}`, t.access_token);
    expect(p2.body.files).toHaveLength(1);
    expect(p2.body.files[0].id).not.toBe(p1.body.files[0].id);
  });

  it('leaves out what is below a trashed folder', async () => {
    const box = await mkdir(h, t.access_token, 'Box', top);
    const inner = await mkdir(h, t.access_token, 'Inner', box);
    await h.putFile(t, inner, 'report-binned.txt', 'e');
    expect((await search(t.access_token, { name: { contains: 'binned' }, folder_id: { eq: top } })).body.files).toHaveLength(1);
    await h.api('POST', '/drive/v1/files:batchTrash', t.access_token, { ids: [box] });
    expect((await search(t.access_token, { name: { contains: 'binned' }, folder_id: { eq: top } })).body.files).toEqual([]);
  });

  it("refuses another account's folder exactly like a missing one, and a file as the scope", async () => {
    const theirs = await search(other.access_token, { name: { contains: 'report' }, folder_id: { eq: top } });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('file_not_found');
    expect(JSON.stringify(theirs.body)).not.toContain('report');
    const missing = await search(other.access_token, { folder_id: { eq: 'nosuchfolder000000000' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error_description).toBe(theirs.body.error_description);
    const file = (await search(t.access_token, { name: { contains: 'outside' } })).body.files[0];
    const asScope = await search(t.access_token, { folder_id: { eq: file.id } });
    expect(asScope.status).toBe(400);
    expect(asScope.body.error).toBe('invalid_argument');
  });

  it('sorts a scoped search by type (TYPE_DESC), page by page', async () => {
    await h.putFile(t, top, 'report-a.zip', 'z');
    await h.putFile(t, top, 'report-b.mp3', 'm');
    const filters = encodeURIComponent(JSON.stringify({ name: { contains: 'report-' }, folder_id: { eq: top } }));
    const seen: string[] = [];
    let token = '';
    do {
      const res = await h.api('GET', `/drive/v1/files?parent_id=*&order=TYPE_DESC&limit=2&filters=${filters}${token ? `&page_token=${token}` : ''}`, t.access_token);
      expect(res.status).toBe(200);
      seen.push(...res.body.files.map((f: any) => f.name));
      token = res.body.next_page_token;
    } while (token);
    // Extension Z to A (.zip, .txt, .mp3), then by name.
    expect(seen).toEqual(['report-a.zip', 'report-nested.txt', 'report-top.txt', 'report-b.mp3']);
  });

  it('caps the walk at a number of folders', async () => {
    const { user_id } = await h.ctx.db.selectFrom('files').select('user_id').where('id', '=', top).executeTakeFirstOrThrow();
    expect(await searchScopeFolders(h.ctx.db, user_id, deep, 2)).toEqual([deep]);
    await expect(searchScopeFolders(h.ctx.db, user_id, top, 2)).rejects.toMatchObject({ error: 'invalid_argument' });
  });
});

describe('platform of a file', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let visitor: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul();
    t = await h.signUp();
    visitor = await h.signUp();
  });
  afterAll(() => h.destroy());

  const search = (token: string, filters: object) =>
    h.api('GET', `/drive/v1/files?parent_id=*&filters=${encodeURIComponent(JSON.stringify(filters))}`, token);

  it('records uploads, saves from a share and cloud downloads, with the tag icon, and filters on it', async () => {
    const up = await h.putFile(t, '', 'holiday.jpg', 'jpg');
    // A cloud download from a site's own host is that site's; as the offline worker places it.
    const { placeFile } = await import('../src/files/files.service.js');
    const blob = await h.ctx.blobs.put((await import('node:stream')).Readable.from([Buffer.from('mp4')]));
    const yt = await placeFile(h.ctx, t.sub, { parentId: '', name: 'talk.mp4', hash: blob.hash, size: blob.size, params: { platform: 'youtube', url: 'https://youtu.be/x' } });

    const mine = await h.api('GET', `/drive/v1/files/${up.id}`, t.access_token);
    expect(mine.body.params).toMatchObject({ platform: 'upload', platform_icon: 'upload' });
    const ytFile = await h.api('GET', `/drive/v1/files/${yt.id}`, t.access_token);
    expect(ytFile.body.params).toMatchObject({ platform: 'youtube', platform_icon: 'youtube' });

    const shared = await h.api('POST', '/drive/v1/share', t.access_token, { file_ids: [up.id], share_to: 'publiclink', expiration_days: -1 });
    const saved = await h.api('POST', '/drive/v1/share/restore', visitor.access_token, { share_id: shared.body.share_id });
    expect(saved.status).toBe(200);
    const copy = await h.api('GET', `/drive/v1/files/${saved.body.file_ids[0]}`, visitor.access_token);
    expect(copy.body.params).toEqual({ platform: 'share', platform_icon: 'share' });

    const fromYoutube = await search(t.access_token, { platform: { eq: 'youtube' } });
    expect(fromYoutube.body.files.map((f: any) => f.id)).toEqual([yt.id]);
    const uploads = await search(t.access_token, { platform: { eq: 'upload' } });
    expect(uploads.body.files.map((f: any) => f.id)).toEqual([up.id]);
    expect((await search(visitor.access_token, { platform: { eq: 'share' } })).body.files.map((f: any) => f.id)).toEqual([copy.body.id]);
  });

  it('names the platform of a link only when its host is that site', async () => {
    const { platformOfHost, platformIcon } = await import('@haul/shared');
    expect(platformOfHost('www.youtube.com')).toBe('youtube');
    expect(platformOfHost('m.youtube.com')).toBe('youtube');
    expect(platformOfHost('youtube.com.example.org')).toBe('other');
    expect(platformOfHost('notyoutube.com')).toBe('other');
    expect(platformOfHost('x.com')).toBe('twitter');
    expect(platformOfHost('t.me')).toBe('telegram');
    expect(platformIcon('bt')).toBe('other');
    expect(platformIcon('archive')).toBe('other');
    expect(platformIcon('tiktok')).toBe('tiktok');
  });
});
