/**
 * Feeds against a real server and a feed origin on loopback (feed-origin.ts): subscribing reads the feed once; RSS
 * items (enclosures, magnet links, the torrent namespace) and Atom entries (rel=enclosure .torrent) become one cloud
 * download each as they appear; ETag and Last-Modified are sent back and a 304 changes nothing; errors back off;
 * patterns filter and "fetch anyway" overrides them once; two worker processes and a restart add nothing twice; one
 * account never reaches another's feeds. The daily limit, a task completing and erasure: feeds-accounts.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { buildHaul, type Haul } from '../src/app.js';
import { checkFeed } from '../src/feeds/feed.worker.js';
import { atomEntry, base, feed, grow, hash, MINUTE, rssItem, startFeedOrigin, stopFeedOrigin, torrentFor } from './feed-origin.js';
import { ManualClock, mkdir, startTestHaul, type TestHaul } from './helper.js';

beforeAll(startFeedOrigin);
afterAll(stopFeedOrigin);

describe('feeds', { timeout: 60_000 }, () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 8));
  let h: TestHaul;
  let ann: TokenResponse;
  let bob: TokenResponse;
  let folder = '';
  /** As `who`, signed in again when the clock has moved past the token's life. */
  const call = async (method: string, url: string, body?: unknown, who: TokenResponse = ann) => {
    const r = await h.api(method, url, who.access_token, body);
    if (r.status !== 401) return r;
    const email = who === ann ? 'ann@example.com' : 'bob@example.com';
    Object.assign(who, (await h.api('POST', '/v1/auth/signin', undefined, { username: email, password: 'correct horse' })).body);
    return h.api(method, url, who.access_token, body);
  };
  const subscribe = (body: object, who: TokenResponse = ann) => call('POST', '/drive/v1/feeds', body, who);
  const items = async (feedId: string, who: TokenResponse = ann) => (await call('GET', `/drive/v1/feeds/${feedId}/items`, undefined, who)).body.items as any[];
  const feedOf = async (feedId: string) => ((await call('GET', '/drive/v1/feeds')).body.feeds as any[]).find((f) => f.id === feedId);
  const tasksOf = (userId: string) => h.ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('type', '=', 'offline').execute();
  /** Moves time past every feed's next check. */
  const later = (minutes = 61) => clock.advance(minutes * MINUTE);

  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: true, dailyTaskLimit: 40 }, clock);
    ann = await h.signUp('ann@example.com');
    bob = await h.signUp('bob@example.com');
    folder = await mkdir(h, ann.access_token, 'Shows');
  });
  afterAll(() => h.destroy());

  it('refuses what is not a feed, a bad pattern and a short interval, naming why, and keeps nothing', async () => {
    const html = await subscribe({ url: `${base}/page.html` });
    expect([html.status, html.body.error, html.body.error_description]).toEqual([400, 'invalid_argument', 'This is not an RSS or Atom feed.']);
    const missing = await subscribe({ url: `${base}/nothing.xml` });
    expect([missing.status, missing.body.error_description]).toEqual([400, "The feed's server has no feed there (404)."]);
    feed('/ok.xml', 'Ok');
    expect((await subscribe({ url: `${base}/ok.xml`, include: ['/([/'] })).body.error_description).toMatch(/not a valid regular expression/);
    expect((await subscribe({ url: `${base}/ok.xml`, interval_minutes: 5 })).status).toBe(400);
    expect((await subscribe({ url: 'ftp://example.com/feed' })).body.error_description).toMatch(/not an http or https link/);
    expect((await call('GET', '/drive/v1/feeds')).body.feeds).toEqual([]);
  });

  let rss = '';
  const rssFeed = feed('/rss.xml', 'Weekly Shows');
  it('subscribes after reading the feed once, answering its title and how many items it lists', async () => {
    rssFeed.items = [rssItem(1, 'Show S01E01 1080p', 'enclosure'), rssItem(2, 'Album', 'magnet'), rssItem(3, 'Show S01E02 1080p', 'namespace')];
    const r = await subscribe({ url: `${base}/rss.xml`, parent_id: folder, interval_minutes: 60 });
    expect(r.status).toBe(200);
    expect(r.body.items_listed).toBe(3);
    expect(r.body.feed).toMatchObject({ title: 'Weekly Shows', parent_id: folder, interval_minutes: 60, paused: false, last_checked_at: '', failures: 0 });
    rss = r.body.feed.id;
    expect((await subscribe({ url: `${base}/rss.xml` })).body.error_description).toBe('You follow this feed already.');
  });

  it('a check makes one cloud download per item: an enclosure, a magnet link, the torrent namespace', async () => {
    expect(await h.feeds.runDue()).toBe(3);
    const history = await items(rss);
    expect(history.map((i) => [i.title, i.kind, i.state]).sort()).toEqual([
      ['Album', 'magnet', 'fetched'],
      ['Show S01E01 1080p', 'http', 'fetched'],
      ['Show S01E02 1080p', 'magnet', 'fetched'],
    ]);
    const tasks = await tasksOf(ann.sub);
    expect(tasks).toHaveLength(3);
    expect(new Set(history.map((i) => i.task_id))).toEqual(new Set(tasks.map((t) => t.id)));
    const urls = tasks.map((t) => JSON.parse(t.params).url as string).sort();
    expect(urls).toEqual([`${base}/files/1.bin`, `magnet:?xt=urn:btih:${hash(2)}&dn=Album`, `magnet:?xt=urn:btih:${hash(3)}&dn=x`].sort());
    expect(tasks.every((t) => JSON.parse(t.params).parent_id === folder)).toBe(true);
    const f = await feedOf(rss);
    expect(f.item_count).toBe(3);
    expect(f.last_checked_at).not.toBe('');
    expect(Date.parse(f.next_check_at) - clock.now()).toBe(60 * MINUTE);
  });

  it('is not read before its interval; then sends the ETag back and a 304 changes nothing', async () => {
    expect(await h.feeds.runDue()).toBe(0);
    expect(rssFeed.requests).toBe(2); // the subscription's read and the first check
    later();
    expect(await h.feeds.runDue()).toBe(0);
    expect([rssFeed.requests, rssFeed.conditional, rssFeed.notModified]).toEqual([3, 1, 1]);
    expect(await tasksOf(ann.sub)).toHaveLength(3);
    expect(Date.parse((await feedOf(rss)).last_checked_at)).toBe(clock.now());
  });

  it('items added over time become one task each, the older first', async () => {
    grow(rssFeed, rssItem(4, 'Show S01E03 1080p', 'enclosure'));
    later();
    expect(await h.feeds.runDue()).toBe(1);
    grow(rssFeed, rssItem(6, 'Show S01E05 1080p', 'hash'), rssItem(5, 'Show S01E04 1080p', 'enclosure'));
    later();
    expect(await h.feeds.runDue()).toBe(2);
    const tasks = await tasksOf(ann.sub);
    expect(tasks).toHaveLength(6);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(6);
    const e05 = (await items(rss)).find((i) => i.title === 'Show S01E05 1080p');
    expect(e05).toMatchObject({ kind: 'magnet', state: 'fetched' });
    expect(e05.link).toContain(`xt=urn:btih:${hash(6)}`);
  });

  it('the same item under a new guid (same link or info hash) is not fetched again', async () => {
    grow(rssFeed, rssItem(2, 'Album (re-posted)', 'magnet').replace('item-2', 'item-2-again'));
    later();
    expect(await h.feeds.runDue()).toBe(0);
    expect(await tasksOf(ann.sub)).toHaveLength(6);
    expect((await items(rss)).some((i) => i.title === 'Album (re-posted)')).toBe(false);
  });

  it('an Atom feed: rel=enclosure .torrent links are read and travel in the task; Last-Modified is sent back', async () => {
    const atom = feed('/atom.xml', 'Atom packs', [atomEntry(2, 'Pack two'), atomEntry(1, 'Pack one')]);
    const r = await subscribe({ url: `${base}/atom.xml`, parent_id: folder });
    expect(r.body.feed.title).toBe('Atom packs');
    expect(await h.feeds.runDue()).toBe(2);
    const made = (await items(r.body.feed.id)).map((i) => [i.title, i.kind, i.state]);
    expect(made.sort()).toEqual([
      ['Pack one', 'torrent', 'fetched'],
      ['Pack two', 'torrent', 'fetched'],
    ]);
    const tasks = (await tasksOf(ann.sub)).filter((t) => JSON.parse(t.params).torrent);
    expect(tasks.map((t) => Buffer.from(JSON.parse(t.params).torrent, 'base64').equals(torrentFor('pack1.bin')) || Buffer.from(JSON.parse(t.params).torrent, 'base64').equals(torrentFor('pack2.bin')))).toEqual([true, true]);
    later();
    expect(await h.feeds.runDue()).toBe(0);
    expect(atom.notModified).toBe(1);
  });

  it('include and exclude patterns filter, saying why; "fetch anyway" fetches a skipped one once', async () => {
    feed('/filtered.xml', 'Filtered', [
      rssItem(20, 'Film 2160p CAM', 'enclosure'),
      rssItem(21, 'Film 720p', 'enclosure'),
      rssItem(22, 'Film 1080p WEB', 'enclosure'),
    ]);
    const r = await subscribe({ url: `${base}/filtered.xml`, parent_id: folder, include: ['1080p', '/2160p/'], exclude: ['*cam*'] });
    const before = (await tasksOf(ann.sub)).length;
    expect(await h.feeds.runDue()).toBe(1);
    const history = await items(r.body.feed.id);
    const by = (t: string) => history.find((i) => i.title === t);
    expect(by('Film 1080p WEB')).toMatchObject({ state: 'fetched', why: '' });
    expect(by('Film 2160p CAM')).toMatchObject({ state: 'skipped', why: 'Matches the exclude pattern "*cam*".', task_id: '' });
    expect(by('Film 720p')).toMatchObject({ state: 'skipped', why: 'Matches none of the include patterns.' });
    const skipped = (await call('GET', `/drive/v1/feeds/${r.body.feed.id}/items?state=skipped`)).body.items;
    expect(skipped).toHaveLength(2);

    const anyway = await call('POST', `/drive/v1/feeds/${r.body.feed.id}/items:fetch`, { ids: [by('Film 720p').id] });
    expect(anyway.status).toBe(200);
    expect(anyway.body.items[0]).toMatchObject({ state: 'fetched', why: '' });
    expect(anyway.body.tasks).toHaveLength(1);
    expect(anyway.body.items[0].task_id).toBe(anyway.body.tasks[0].id);
    const again = await call('POST', `/drive/v1/feeds/${r.body.feed.id}/items:fetch`, { ids: [by('Film 720p').id] });
    expect(again.body.tasks).toHaveLength(0);
    expect((await tasksOf(ann.sub)).length).toBe(before + 2);
  });

  it('changing patterns applies to items seen from then on', async () => {
    const f = feed('/later.xml', 'Later', [rssItem(30, 'Old one', 'enclosure')]);
    const r = await subscribe({ url: `${base}/later.xml`, parent_id: folder, existing: 'skip' });
    const first = await items(r.body.feed.id);
    expect(first).toEqual([expect.objectContaining({ title: 'Old one', state: 'skipped', why: 'Listed before you subscribed.' })]);
    const patched = await call('PATCH', `/drive/v1/feeds/${r.body.feed.id}`, { exclude: ['boring'], interval_minutes: 15 });
    expect(patched.body).toMatchObject({ exclude: ['boring'], interval_minutes: 15 });
    expect(await h.feeds.runDue()).toBe(0);
    grow(f, rssItem(31, 'Boring one', 'enclosure'), rssItem(32, 'Good one', 'enclosure'));
    later(16);
    expect(await h.feeds.runDue()).toBe(1);
    expect((await items(r.body.feed.id)).map((i) => [i.title, i.state]).sort()).toEqual([
      ['Boring one', 'skipped'],
      ['Good one', 'fetched'],
      ['Old one', 'skipped'],
    ]);
  });

  it('a failing feed backs off, doubling its wait, and says why; a good answer clears it', async () => {
    const f = feed('/flaky.xml', 'Flaky', [rssItem(40, 'Flaky item', 'enclosure')]);
    const r = await subscribe({ url: `${base}/flaky.xml`, parent_id: folder, interval_minutes: 30, existing: 'skip' });
    const id = r.body.feed.id;
    f.status = 500;
    await h.feeds.runDue();
    let now = await feedOf(id);
    expect(now).toMatchObject({ failures: 1, last_error: "The feed's server answered with an error (500)." });
    expect(Date.parse(now.next_check_at) - clock.now()).toBe(60 * MINUTE);
    later(61);
    await h.feeds.runDue();
    now = await feedOf(id);
    expect(now.failures).toBe(2);
    expect(Date.parse(now.next_check_at) - clock.now()).toBe(120 * MINUTE);
    later(61);
    const requests = f.requests;
    await h.feeds.runDue();
    expect(f.requests).toBe(requests); // still waiting
    later(60);
    f.status = 200;
    await h.feeds.runDue();
    now = await feedOf(id);
    expect(now).toMatchObject({ failures: 0, last_error: '' });
    expect(Date.parse(now.next_check_at) - clock.now()).toBe(30 * MINUTE);
  });

  it('a paused feed is not read; resuming reads it at once', async () => {
    grow(rssFeed, rssItem(7, 'Show S01E06 1080p', 'enclosure'));
    const paused = await call('PATCH', `/drive/v1/feeds/${rss}`, { paused: true });
    expect(paused.body).toMatchObject({ paused: true, next_check_at: '' });
    const requests = rssFeed.requests;
    later(200);
    await h.feeds.runDue();
    expect(rssFeed.requests).toBe(requests);
    const resumed = await call('PATCH', `/drive/v1/feeds/${rss}`, { paused: false });
    expect(Date.parse(resumed.body.next_check_at)).toBe(clock.now());
    expect(await h.feeds.runDue()).toBe(1);
  });

  describe('with a second worker process on the same database', () => {
    let other: Haul;
    beforeAll(async () => {
      other = await buildHaul({ ...h.ctx.config }, { logger: false, clock, heartbeat: false });
    });
    afterAll(() => other?.close());

    it('two workers looking at once add each new item once', async () => {
      const before = (await tasksOf(ann.sub)).length;
      grow(rssFeed, rssItem(8, 'Show S01E07 1080p', 'enclosure'), rssItem(9, 'Show S01E08 1080p', 'magnet'));
      later();
      const reads = rssFeed.requests;
      const [a, b] = await Promise.all([h.feeds.runDue(), other.feeds.runDue()]);
      expect(a + b).toBe(2);
      // Claimed by one of them: the feed was read once.
      expect(rssFeed.requests - reads).toBe(1);
      expect((await tasksOf(ann.sub)).length).toBe(before + 2);
    });

    it('even two checks of one feed past its claim make each item once', async () => {
      const before = (await tasksOf(ann.sub)).length;
      grow(rssFeed, rssItem(10, 'Show S01E09 1080p', 'enclosure'), rssItem(11, 'Show S01E10 1080p', 'hash'));
      const row = await h.ctx.db.selectFrom('feeds').selectAll().where('id', '=', rss).executeTakeFirstOrThrow();
      // Without validators, both read the whole feed; neither claimed it, so both run in full.
      const open = { ...row, etag: '' };
      const [a, b] = await Promise.all([checkFeed(h.ctx, open, row.lease_until), checkFeed(other.ctx, open, row.lease_until)]);
      expect(a.tasks + b.tasks).toBe(2);
      expect((await tasksOf(ann.sub)).length).toBe(before + 2);
      expect((await items(rss)).filter((i) => i.title === 'Show S01E09 1080p')).toHaveLength(1);
    });

    it('a restarted worker adds none of what was added before', async () => {
      const before = (await tasksOf(ann.sub)).length;
      await other.close();
      other = await buildHaul({ ...h.ctx.config }, { logger: false, clock, heartbeat: false });
      // Forget the validators, so the restarted worker reads every item again.
      await h.ctx.db.updateTable('feeds').set({ etag: '', last_modified: '', next_check_at: 0 }).execute();
      expect(await other.feeds.runDue()).toBe(0);
      expect((await tasksOf(ann.sub)).length).toBe(before);
      expect(rssFeed.requests).toBeGreaterThan(0);
    });
  });

  it('one account never reaches another\'s feeds', async () => {
    expect((await call('GET', '/drive/v1/feeds', undefined, bob)).body.feeds).toEqual([]);
    const item = (await items(rss))[0];
    for (const [method, url, body] of [
      ['GET', `/drive/v1/feeds/${rss}/items`],
      ['PATCH', `/drive/v1/feeds/${rss}`, { paused: true }],
      ['DELETE', `/drive/v1/feeds/${rss}`],
      ['POST', `/drive/v1/feeds/${rss}/items:fetch`, { ids: [item.id] }],
    ] as const) {
      const r = await call(method, url, body, bob);
      expect([r.status, r.body.error]).toEqual([404, 'file_not_found']);
    }
    expect((await feedOf(rss)).paused).toBe(false);
    // Bob's own feed into Ann's folder is refused.
    const intoAnns = await subscribe({ url: `${base}/ok.xml`, parent_id: folder }, bob);
    expect(intoAnns.status).toBe(404);
  });

  it('unsubscribing deletes the feed and its history; the tasks stay', async () => {
    const tasks = (await tasksOf(ann.sub)).length;
    expect((await call('DELETE', `/drive/v1/feeds/${rss}`)).status).toBe(200);
    expect(await feedOf(rss)).toBeUndefined();
    expect(await h.ctx.db.selectFrom('feed_items').select('id').where('feed_id', '=', rss).execute()).toEqual([]);
    expect((await tasksOf(ann.sub)).length).toBe(tasks);
  });

});
