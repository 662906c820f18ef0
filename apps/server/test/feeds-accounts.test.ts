/**
 * Feeds and the accounts they belong to, against a real server and the feed origin of feed-origin.ts: a task made from
 * an item completes into the feed's folder; erasing an account takes its feeds and items along (and a deleted
 * account's feeds are no longer read); the daily task limit holds, and what it holds back waits for the next day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { base, feed, grow, MINUTE, rssItem, startFeedOrigin, stopFeedOrigin } from './feed-origin.js';
import { ManualClock, mkdir, names, startTestHaul, type TestHaul } from './helper.js';

beforeAll(startFeedOrigin);
afterAll(stopFeedOrigin);

describe('feeds of an account', { timeout: 60_000 }, () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 8));
  let h: TestHaul;
  const subscribe = (who: TokenResponse, body: object) => h.api('POST', '/drive/v1/feeds', who.access_token, body);
  const tasksOf = (userId: string) => h.ctx.db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('type', '=', 'offline').execute();
  /** Moves time past every feed's next check. */
  const later = (minutes = 61) => clock.advance(minutes * MINUTE);

  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: true, dailyTaskLimit: 40 }, clock);
  });
  afterAll(() => h.destroy());

  it('a task made from an item completes into the feed\'s folder', async () => {
    // An account of its own: magnet links (no peers on loopback) would hold the slots another may take.
    const eve = await h.signUp('eve@example.com');
    const into = await mkdir(h, eve.access_token, 'Podcast');
    feed('/podcast.xml', 'Podcast', [rssItem(60, 'Episode one', 'enclosure')]);
    expect((await subscribe(eve, { url: `${base}/podcast.xml`, parent_id: into })).status).toBe(200);
    expect(await h.feeds.runDue()).toBe(1);
    h.offline.start();
    const deadline = Date.now() + 20_000;
    while (!(await names(h, eve.access_token, into)).includes('60.bin') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await names(h, eve.access_token, into)).toEqual(['60.bin']);
  });

  it('erasing an account takes its feeds and items along', async () => {
    const cy = await h.signUp('cy@example.com');
    const cyFeed = feed('/cy.xml', 'Cy', [rssItem(50, 'Cy item', 'magnet')]);
    await subscribe(cy, { url: `${base}/cy.xml` });
    await h.feeds.runDue();
    expect(await h.ctx.db.selectFrom('feed_items').select('id').where('user_id', '=', cy.sub).execute()).toHaveLength(1);
    await markAccountDeleted(h.ctx, cy.sub);
    // Deleted, not yet erased: its feeds are no longer read.
    grow(cyFeed, rssItem(51, 'Cy item two', 'magnet'));
    later();
    const reads = cyFeed.requests;
    await h.feeds.runDue();
    expect(cyFeed.requests).toBe(reads);
    expect(await tasksOf(cy.sub)).toHaveLength(1);
    expect(await eraseAccount(h.ctx, cy.sub)).toBe('done');
    expect(await h.ctx.db.selectFrom('feeds').select('id').where('user_id', '=', cy.sub).execute()).toEqual([]);
    expect(await h.ctx.db.selectFrom('feed_items').select('id').where('user_id', '=', cy.sub).execute()).toEqual([]);
  });
});

describe('feeds and the daily task limit', { timeout: 60_000 }, () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 2, 8));
  let h: TestHaul;
  let dee: TokenResponse;

  beforeAll(async () => {
    h = await startTestHaul({ allowPrivateNetwork: true, dailyTaskLimit: 3 }, clock);
    dee = await h.signUp('dee@example.com');
  });
  afterAll(() => h.destroy());

  it('adds no more than the day allows; the rest wait, say why, and are fetched the next day', async () => {
    const big = feed('/big.xml', 'Big', [5, 4, 3, 2, 1].map((n) => rssItem(100 + n, `Episode ${n}`, 'magnet')));
    const r = await h.api('POST', '/drive/v1/feeds', dee.access_token, { url: `${base}/big.xml`, interval_minutes: 60 });
    expect(await h.feeds.runDue()).toBe(3);
    const list = async () => (await h.api('GET', `/drive/v1/feeds/${r.body.feed.id}/items`, dee.access_token)).body.items as any[];
    const waiting = (await list()).filter((i) => i.state === 'matched');
    expect(waiting.map((i) => i.title).sort()).toEqual(['Episode 4', 'Episode 5']);
    expect(waiting[0].why).toMatch(/You can add 3 cloud downloads a day/);
    // Fetch anyway counts too.
    const anyway = await h.api('POST', `/drive/v1/feeds/${r.body.feed.id}/items:fetch`, dee.access_token, { ids: [waiting[0].id] });
    expect([anyway.status, anyway.body.error]).toEqual([403, 'task_daily_create_limit']);
    expect((await list()).find((i) => i.id === waiting[0].id).state).toBe('matched');
    clock.advance(24 * 60 * MINUTE);
    expect(await h.feeds.runDue()).toBe(2);
    Object.assign(dee, (await h.api('POST', '/v1/auth/signin', undefined, { username: 'dee@example.com', password: 'correct horse' })).body);
    expect((await list()).every((i) => i.state === 'fetched')).toBe(true);
    const tasks = await h.ctx.db.selectFrom('tasks').select('id').where('user_id', '=', dee.sub).execute();
    expect(tasks).toHaveLength(5);
    expect(big.notModified).toBe(1);
  });
});
