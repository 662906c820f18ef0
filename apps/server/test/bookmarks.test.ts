/**
 * Bookmarks against a real server and a loopback origin: keep (checked and unchecked, kept again), list, search,
 * rename, delete; one account never reaches another's; fetching makes cloud downloads that land, named as the
 * bookmarks are, and counts against the daily limit as a whole; bad input changes nothing; erasure takes them along.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { mkdir, names, startTestHaul, type TestHaul } from './helper.js';

const BODY = Buffer.alloc(20_000, 3);
/** A one-file .torrent, bencoded by hand: enough for a task to be made from it. */
const TORRENT = Buffer.concat([
  Buffer.from('d8:announce22:http://127.0.0.1:1/ann4:infod6:lengthi5e4:name5:a.bin12:piece lengthi16384e6:pieces20:'),
  Buffer.alloc(20, 9),
  Buffer.from('ee'),
]);
let origin: Server;
let base: string;

beforeAll(async () => {
  origin = createServer((req, res) => {
    if (req.url === '/pack.torrent') {
      res.writeHead(200, { 'content-type': 'application/x-bittorrent', 'content-length': String(TORRENT.length) });
      return void res.end(req.method === 'HEAD' ? undefined : TORRENT);
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BODY.length) });
    res.end(req.method === 'HEAD' ? undefined : BODY);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => origin.close(() => r())));

describe('bookmarks', { timeout: 60_000 }, () => {
  let h: TestHaul;
  let ann: TokenResponse;
  let bob: TokenResponse;
  const call = (method: string, url: string, body?: unknown, who: TokenResponse = ann) => h.api(method, url, who.access_token, body);
  const list = async (q = '', who: TokenResponse = ann) =>
    (await call('GET', `/drive/v1/bookmarks${q ? `?q=${encodeURIComponent(q)}` : ''}`, undefined, who)).body.bookmarks as { id: string; name: string; url: string }[];
  const keep = (body: object, who: TokenResponse = ann) => call('POST', '/drive/v1/bookmarks', body, who);

  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: true, dailyTaskLimit: 4 });
    ann = await h.signUp('ann@example.com');
    bob = await h.signUp('bob@example.com');
  });
  afterAll(() => h.destroy());

  it('keeps a checked link with its check, and an unchecked one with what the link tells', async () => {
    const checked = await keep({
      url: `${base}/films/Big%20Film.mkv`,
      source: 'checker',
      check: { kind: 'http', name: 'Big Film.mkv', size: '20000', mime_type: 'video/x-matroska' },
    });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ name: 'Big Film.mkv', kind: 'http', size: '20000', mime_type: 'video/x-matroska', source: 'checker' });
    expect(checked.body.checked_at).not.toBe('');
    const magnet = await keep({ url: 'magnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567&dn=Some+Album', source: 'dialog' });
    expect(magnet.body).toMatchObject({ name: 'Some Album', kind: 'magnet', size: '', checked_at: '', source: 'dialog' });
    const torrent = await keep({ url: `${base}/get/pack.torrent`, source: 'extension' });
    expect(torrent.body).toMatchObject({ name: 'pack.torrent', kind: 'torrent', source: 'extension' });
    expect((await list()).map((b) => b.name)).toEqual(['pack.torrent', 'Some Album', 'Big Film.mkv']);
  });

  it('keeping a link again updates that bookmark and moves it to the top, without a second one', async () => {
    const before = (await list()).find((b) => b.name === 'Big Film.mkv')!;
    const again = await keep({ url: `${base}/films/Big%20Film.mkv`, source: 'file', name: 'Film, kept again' });
    expect(again.body.id).toBe(before.id);
    expect(again.body).toMatchObject({ name: 'Film, kept again', source: 'file', size: '20000' });
    const now = await list();
    expect(now).toHaveLength(3);
    expect(now[0]!.id).toBe(before.id);
  });

  it('searches names and links in any case, with % and _ as themselves', async () => {
    expect((await list('ALBUM')).map((b) => b.name)).toEqual(['Some Album']);
    expect((await list('/get/')).map((b) => b.name)).toEqual(['pack.torrent']);
    expect(await list('100%')).toEqual([]);
    expect(await list('nothing like it')).toEqual([]);
  });

  it('pages through a long list', async () => {
    const first = await call('GET', '/drive/v1/bookmarks?limit=2');
    expect(first.body.bookmarks).toHaveLength(2);
    const second = await call('GET', `/drive/v1/bookmarks?limit=2&page_token=${encodeURIComponent(first.body.next_page_token)}`);
    expect(second.body.bookmarks).toHaveLength(1);
    expect(second.body.next_page_token).toBe('');
  });

  it('renames', async () => {
    const id = (await list('album'))[0]!.id;
    const r = await call('PATCH', `/drive/v1/bookmarks/${id}`, { name: '  The Album  ' });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('The Album');
    expect((await list('the album'))[0]!.id).toBe(id);
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const before = await list();
    for (const body of [
      { url: 'ftp://example.com/x', source: 'checker' },
      { url: 'not a link', source: 'dialog' },
      { url: `${base}/x`, source: 'somewhere' },
      { url: `${base}/x`, source: 'checker', check: { kind: 'ftp', name: 'x', size: '', mime_type: '' } },
      { url: `${base}/x`, source: 'checker', name: '' },
    ]) {
      const r = await keep(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe('invalid_argument');
    }
    const id = before[0]!.id;
    expect((await call('PATCH', `/drive/v1/bookmarks/${id}`, { name: '' })).status).toBe(400);
    expect((await call('POST', '/drive/v1/bookmarks:delete', { ids: [] })).status).toBe(400);
    expect((await call('POST', '/drive/v1/bookmarks:fetch', { ids: [id] })).status).toBe(400);
    expect(await list()).toEqual(before);
  });

  it("keeps one account from another's bookmarks", async () => {
    const mine = await list();
    const id = mine[0]!.id;
    expect(await list('', bob)).toEqual([]);
    expect((await call('PATCH', `/drive/v1/bookmarks/${id}`, { name: 'Taken' }, bob)).status).toBe(404);
    expect((await call('POST', '/drive/v1/bookmarks:delete', { ids: [id] }, bob)).status).toBe(404);
    expect((await call('POST', '/drive/v1/bookmarks:fetch', { ids: [id], parent_id: '' }, bob)).status).toBe(404);
    // The same link kept by another account is that account's own bookmark.
    const theirs = await keep({ url: mine[0]!.url, source: 'dialog' }, bob);
    expect(theirs.body.id).not.toBe(id);
    expect(await list()).toEqual(mine);
    // One of mine and one of theirs: refused as a whole, nothing deleted.
    expect((await call('POST', '/drive/v1/bookmarks:delete', { ids: [id, theirs.body.id] })).status).toBe(404);
    expect(await list()).toEqual(mine);
    expect(await list('', bob)).toHaveLength(1);
  });

  it('fetches several into a folder as cloud downloads named as the bookmarks, counting the daily limit', async () => {
    const folder = await mkdir(h, ann.access_token, 'Later');
    const a = await keep({ url: `${base}/one.bin`, source: 'checker', name: 'First.bin' });
    const b = await keep({ url: `${base}/two.bin`, source: 'dialog' });
    const r = await call('POST', '/drive/v1/bookmarks:fetch', { ids: [a.body.id, b.body.id], parent_id: folder });
    expect(r.status).toBe(200);
    expect(r.body.tasks).toHaveLength(2);
    expect(r.body.tasks.map((t: { name: string }) => t.name).sort()).toEqual(['First.bin', 'two.bin']);
    h.offline.start();
    const deadline = Date.now() + 30_000;
    while ((await names(h, ann.access_token, folder)).length < 2 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 200));
    expect((await names(h, ann.access_token, folder)).sort()).toEqual(['First.bin', 'two.bin']);
    // The bookmarks stay after a fetch.
    expect((await list()).map((x) => x.id)).toEqual(expect.arrayContaining([a.body.id, b.body.id]));
    // 2 of 4 used today: three more are refused as a whole, nothing made; two still fit.
    const c = await keep({ url: `${base}/three.bin`, source: 'checker' });
    const tasksBefore = (await call('GET', '/drive/v1/tasks?type=offline')).body.tasks.length;
    const over = await call('POST', '/drive/v1/bookmarks:fetch', { ids: [a.body.id, b.body.id, c.body.id], parent_id: folder });
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('task_daily_create_limit');
    expect((await call('GET', '/drive/v1/tasks?type=offline')).body.tasks.length).toBe(tasksBefore);
    expect((await call('POST', '/drive/v1/bookmarks:fetch', { ids: [a.body.id, c.body.id], parent_id: folder })).status).toBe(200);
    expect((await call('POST', '/drive/v1/bookmarks:fetch', { ids: [c.body.id], parent_id: folder })).body.error).toBe('task_daily_create_limit');
  });

  it("fetches a torrent bookmark as its .torrent file, read from the link", async () => {
    const dee = await h.signUp('dee@example.com');
    const b = await keep({ url: `${base}/pack.torrent`, source: 'checker', name: 'My pack' }, dee);
    expect(b.body.kind).toBe('torrent');
    const r = await call('POST', '/drive/v1/bookmarks:fetch', { ids: [b.body.id], parent_id: '' }, dee);
    expect(r.status).toBe(200);
    expect(r.body.tasks).toHaveLength(1);
    expect(r.body.tasks[0].name).toBe('My pack');
    expect(Buffer.from(r.body.tasks[0].params.torrent, 'base64').equals(TORRENT)).toBe(true);
    const gone = await keep({ url: `${base}/gone.torrent`, source: 'checker' }, dee);
    const refused = await call('POST', '/drive/v1/bookmarks:fetch', { ids: [gone.body.id], parent_id: '' }, dee);
    expect(refused.status).toBe(400);
  });

  it('refuses a fetch into a folder that is not the account\'s', async () => {
    const theirs = await mkdir(h, bob.access_token, 'Bob only');
    const id = (await list())[0]!.id;
    expect((await call('POST', '/drive/v1/bookmarks:fetch', { ids: [id], parent_id: theirs })).status).toBe(404);
  });

  it('deletes in a batch', async () => {
    const all = await list();
    const r = await call('POST', '/drive/v1/bookmarks:delete', { ids: all.slice(0, 2).map((b) => b.id) });
    expect(r.status).toBe(200);
    expect((await list()).map((b) => b.id)).toEqual(all.slice(2).map((b) => b.id));
  });

  it('erases them with the account, and only that account\'s', async () => {
    const cy = await h.signUp('cy@example.com');
    await keep({ url: `${base}/cy.bin`, source: 'checker' }, cy);
    await keep({ url: `${base}/cy2.bin`, source: 'checker' }, cy);
    const bobs = await list('', bob);
    await markAccountDeleted(h.ctx, cy.sub);
    expect(await eraseAccount(h.ctx, cy.sub)).toBe('done');
    expect(await h.ctx.db.selectFrom('bookmarks').select('id').where('user_id', '=', cy.sub).execute()).toEqual([]);
    expect(await list('', bob)).toEqual(bobs);
  });
});
