import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriveFile, TokenResponse } from '@haul/shared';
import { ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';

const q = (o: object) => encodeURIComponent(JSON.stringify(o));

async function all(h: TestHaul, tok: string, url: string): Promise<DriveFile[]> {
  const out: DriveFile[] = [];
  let token = '';
  for (let i = 0; i < 1000; i++) {
    const res = await h.api('GET', `${url}${token ? `&page_token=${encodeURIComponent(token)}` : ''}`, tok);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.files);
    token = res.body.next_page_token;
    if (!token) return out;
  }
  throw new Error('paging did not end');
}

describe('file list: paging, order, filters, incremental sync', () => {
  let h: TestHaul;
  let t: TokenResponse;
  let tok: string;
  const clock = new ManualClock();
  let folder: string;
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
    t = await h.signUp();
    tok = t.access_token;
    folder = await mkdir(h, tok, 'Many');
    // 120 files with distinct times and some equal sizes, plus media types for the filters.
    for (let i = 0; i < 120; i++) {
      clock.advance(1000);
      const ext = i % 3 === 0 ? 'mp4' : i % 3 === 1 ? 'jpg' : 'txt';
      await h.putFile(t, folder, `file-${String(i).padStart(3, '0')}.${ext}`, 'x'.repeat(i % 7));
    }
  });
  afterAll(() => h.destroy());

  it('pages 50 at a time without gaps or repeats, newest first by default', async () => {
    const files = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=50`);
    expect(files).toHaveLength(120);
    expect(new Set(files.map((f) => f.id)).size).toBe(120);
    expect(files[0]!.name).toBe('file-119.mp4'.replace('mp4', ['mp4', 'jpg', 'txt'][119 % 3]!));
    const times = files.map((f) => Date.parse(f.modified_time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('keeps paging stable while items are added during the walk', async () => {
    const first = await h.api('GET', `/drive/v1/files?parent_id=${folder}&limit=40&order=NAME_ASC`, tok);
    clock.advance(1000);
    const added = await h.putFile(t, folder, 'aaa-first.txt', 'new');
    let token = first.body.next_page_token;
    const rest: DriveFile[] = [];
    while (token) {
      const r = await h.api('GET', `/drive/v1/files?parent_id=${folder}&limit=40&order=NAME_ASC&page_token=${encodeURIComponent(token)}`, tok);
      rest.push(...r.body.files);
      token = r.body.next_page_token;
    }
    const seen = [...first.body.files, ...rest].map((f: DriveFile) => f.name);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    await h.api('POST', '/drive/v1/files:batchDelete', tok, { ids: [added.id] });
  });

  it('sorts by name and size both ways, with ties broken stably', async () => {
    const byName = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=33&order=NAME_DESC`);
    const namesDesc = byName.map((f) => f.name);
    expect(namesDesc).toEqual([...namesDesc].sort().reverse());
    const bySize = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=17&order=SIZE_ASC`);
    const sizes = bySize.map((f) => Number(f.size));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(new Set(bySize.map((f) => f.id)).size).toBe(120);
    const byType = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=25&order=TYPE_DESC`);
    expect(byType).toHaveLength(120);
    expect(byType[0]!.file_extension).toBe('.txt');
    expect(byType[119]!.file_extension).toBe('.jpg');
    const byTypeUp = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=25&order=TYPE_ASC`);
    expect(byTypeUp.map((f) => f.file_extension)).toEqual([...byTypeUp.map((f) => f.file_extension)].sort());
    expect(byTypeUp[0]!.file_extension).toBe('.jpg');
    expect(new Set(byTypeUp.map((f) => f.id)).size).toBe(120);
  });

  it('filters by name (case-insensitive, wildcards literal), kind and mime type', async () => {
    const byName = await all(h, tok, `/drive/v1/files?parent_id=*&filters=${q({ name: { contains: 'FILE-00' } })}`);
    expect(byName.map((f) => f.name).sort()).toEqual(['file-000.mp4', 'file-001.jpg', 'file-002.txt', 'file-003.mp4', 'file-004.jpg', 'file-005.txt', 'file-006.mp4', 'file-007.jpg', 'file-008.txt', 'file-009.mp4']);
    expect(await all(h, tok, `/drive/v1/files?parent_id=*&filters=${q({ name: { contains: '%' } })}`)).toEqual([]);
    expect(await all(h, tok, `/drive/v1/files?parent_id=*&filters=${q({ name: { contains: 'file_0' } })}`)).toEqual([]);
    const videos = await all(h, tok, `/drive/v1/files?parent_id=*&filters=${q({ mime_type: { prefix: 'video/' } })}`);
    expect(videos).toHaveLength(40);
    const folders = await all(h, tok, `/drive/v1/files?parent_id=*&filters=${q({ kind: { eq: 'drive#folder' } })}`);
    expect(folders.map((f) => f.name)).toEqual(['Many']);
    const phase = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=500&filters=${q({ phase: { eq: 'PHASE_TYPE_COMPLETE' }, trashed: { eq: false } })}`);
    expect(phase).toHaveLength(120);
  });

  it('incremental sync returns what changed since, including trashed and deleted items', async () => {
    clock.advance(60_000);
    const start = await h.api('GET', `/drive/v1/files?parent_id=*&limit=500`, tok);
    const since = start.body.sync_time;
    clock.advance(1000);
    const files = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=500`);
    const [a, b, c] = files;
    await h.api('PATCH', `/drive/v1/files/${a!.id}`, tok, { name: 'renamed.txt' });
    await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [b!.id] });
    await h.api('POST', '/drive/v1/files:batchDelete', tok, { ids: [c!.id] });
    const changed = await all(h, tok, `/drive/v1/files?parent_id=*&limit=2&filters=${q({ modified_time: { gt: since }, trashed: { eq: false } })}`);
    const byId = new Map(changed.map((f) => [f.id, f]));
    expect(byId.get(a!.id)).toMatchObject({ name: 'renamed.txt', trashed: false });
    expect(byId.get(b!.id)).toMatchObject({ trashed: true });
    expect(byId.get(c!.id)).toMatchObject({ trashed: true, params: { deleted: 'true' } });
    // Nothing else changed since (the 30 s look-back only repeats, never misses).
    expect(changed.filter((f) => ![a!.id, b!.id, c!.id].includes(f.id))).toEqual([]);
  });

  it('walks a whole-drive sync in small pages exactly as in one page: every item once, in change order', async () => {
    // Deleted and trashed items along the way (tombstones between rows), so pages end on both kinds.
    clock.advance(1000);
    const files = await all(h, tok, `/drive/v1/files?parent_id=${folder}&limit=500`);
    await h.api('POST', '/drive/v1/files:batchDelete', tok, { ids: [files[10]!.id] });
    clock.advance(1000);
    await h.api('POST', '/drive/v1/files:batchTrash', tok, { ids: [files[20]!.id] });
    const since = q({ modified_time: { gt: new Date(0).toISOString() } });
    const whole = await all(h, tok, `/drive/v1/files?parent_id=*&limit=500&filters=${since}`);
    const paged = await all(h, tok, `/drive/v1/files?parent_id=*&limit=7&filters=${since}`);
    expect(whole.length).toBeGreaterThan(100);
    expect(paged.map((f) => f.id)).toEqual(whole.map((f) => f.id));
    expect(paged).toEqual(whole);
    expect(paged.find((f) => f.id === files[10]!.id)).toMatchObject({ params: { deleted: 'true' } });
  });

  it('lists an empty folder of one\'s own, and answers another account\'s folder like an unknown id', async () => {
    const empty = await mkdir(h, tok, 'Empty');
    const own = await h.api('GET', `/drive/v1/files?parent_id=${empty}`, tok);
    expect(own.status).toBe(200);
    expect(own.body.files).toEqual([]);
    const other = await h.signUp();
    for (const id of [folder, empty, 'no-such-folder']) {
      const res = await h.api('GET', `/drive/v1/files?parent_id=${id}`, other.access_token);
      expect(res.status, id).toBe(404);
      expect(res.body.error, id).toBe('file_not_found');
    }
  });

  it('refuses malformed filters, orders, limits and page tokens with a clear message', async () => {
    const cases: [string, RegExp][] = [
      [`filters=${q({ colour: { eq: 'red' } })}`, /unknown field "colour"/],
      [`filters=${q({ trashed: { eq: 'yes' } })}`, /true or false/],
      [`filters=${q({ modified_time: { gt: 'yesterday' } })}`, /RFC 3339/],
      [`filters=${q({ phase: { eq: 'PHASE_TYPE_DANCING' } })}`, /unknown phase/],
      ['filters=[1,2]', /JSON object/],
      ['order=RANDOM', /order must be one of/],
      ['limit=0', /limit/],
      ['limit=501', /limit/],
      ['page_token=not-a-token', /page_token/],
    ];
    for (const [query, msg] of cases) {
      const res = await h.api('GET', `/drive/v1/files?parent_id=*&${query}`, tok);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toBe('invalid_argument');
      expect(res.body.error_description, query).toMatch(msg);
    }
    // A token from one order is not accepted for another.
    const p = await h.api('GET', `/drive/v1/files?parent_id=${folder}&limit=5&order=NAME_ASC`, tok);
    const wrong = await h.api('GET', `/drive/v1/files?parent_id=${folder}&limit=5&order=SIZE_ASC&page_token=${p.body.next_page_token}`, tok);
    expect(wrong.status).toBe(400);
  });
});
