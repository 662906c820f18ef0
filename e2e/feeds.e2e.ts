/**
 * Feeds in Chromium, against an RSS origin on loopback: subscribe with a folder and patterns; the history fills
 * (fetched, and skipped with why); the fetched episode lands in the folder; paused, the feed is not read; resumed, it
 * is read at once and a new episode comes in; a skipped one is fetched anyway. The page fits a phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, fitsWidth, linkOrigin, pageApi, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
let origin: Awaited<ReturnType<typeof linkOrigin>>;
let base = '';
const EPISODE = Buffer.alloc(30_000, 7);
let episodes = [1];
let reads = 0;
const item = (n: number, title: string) =>
  `<item><title>${title}</title><guid>ep-${n}</guid><enclosure url="${base}/ep${n}.mp3" length="${EPISODE.length}" type="audio/mpeg"/></item>`;
const rss = () =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Night Radio</title><link>${base}/</link><description>d</description>${[
    ...episodes.map((n) => item(n, `Episode ${n}`)),
    item(99, 'Bonus chat'),
  ].join('')}</channel></rss>`;

beforeAll(async () => {
  e2e = await startE2E();
  e2e.haul.feeds.start();
  origin = await linkOrigin((req, res) => {
    if (req.url === '/rss') {
      reads++;
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss());
    }
    if (/^\/ep\d+\.mp3$/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(EPISODE.length) });
      return void res.end(req.method === 'HEAD' ? undefined : EPISODE);
    }
    res.writeHead(404).end();
  });
  base = origin.base;
}, 60_000);
afterAll(async () => {
  await origin?.close();
  await e2e?.close();
});

const history = (page: Page) => page.getByRole('list', { name: 'History of Night Radio' }).getByRole('listitem');
const historyText = (page: Page) =>
  history(page).evaluateAll((els) => els.map((e) => `${e.getAttribute('aria-label')}: ${e.querySelector('small')?.textContent ?? ''}`).sort());
const filesIn = async (page: Page, parentId: string) =>
  ((await pageApi(page, 'GET', `/drive/v1/files?parent_id=${parentId}`)) as { files: { name: string; size: string }[] }).files.map((f) => `${f.name}:${f.size}`).sort();

describe('feeds', () => {
  it('subscribes, fills the history, lands a download, pauses, resumes and fetches one anyway', { timeout: 120_000 }, async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1366, height: 900 } });
    await signUpInBrowser(page);
    await pageApi(page, 'POST', '/drive/v1/files', { kind: 'drive#folder', name: 'Podcasts', parent_id: '' });
    const folder = ((await pageApi(page, 'GET', '/drive/v1/files?parent_id=')) as { files: { id: string; name: string }[] }).files.find((f) => f.name === 'Podcasts')!;

    // From the sidebar; empty, it says what a feed does.
    await page.getByRole('link', { name: 'Feeds' }).click();
    await page.waitForURL('**/drive/feeds');
    await page.getByText('No feeds yet').waitFor();

    await page.getByRole('button', { name: 'Add feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Subscribe to a feed' });
    await dialog.getByLabel('Feed address (RSS or Atom)').fill(`${base}/rss`);
    await dialog.getByRole('option', { name: 'Podcasts' }).click();
    await dialog.getByText('New items go to: Podcasts').waitFor();
    await dialog.getByLabel('Never items matching (one pattern a line)').fill('bonus');
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText('Subscribed to Night Radio (items listed: 2)').waitFor();

    // The first check runs at once on the worker: the history fills.
    const row = page.getByRole('list', { name: 'Feeds' }).getByRole('listitem', { name: 'Night Radio' });
    await row.getByRole('button', { name: 'History' }).click();
    await expect
      .poll(() => historyText(page), { timeout: 20_000 })
      .toEqual([expect.stringMatching(/^Bonus chat: Skipped · Matches the exclude pattern "bonus"\./), expect.stringMatching(/^Episode 1: Fetched/)]);
    await expect.poll(() => filesIn(page, folder.id), { timeout: 30_000 }).toEqual([`ep1.mp3:${EPISODE.length}`]);
    await expect.poll(async () => row.textContent()).toMatch(/next check .* · checked .* · every 1 h · items: 2/);

    // Paused: said so, and not read.
    await row.getByRole('button', { name: 'Pause Night Radio' }).click();
    await page.getByText('Night Radio paused').waitFor();
    await expect.poll(() => row.textContent()).toContain('Paused');
    const readsPaused = reads;
    episodes = [2, 1];
    await page.waitForTimeout(1500);
    expect(reads).toBe(readsPaused);

    // Resumed: read at once; the new episode comes in.
    await row.getByRole('button', { name: 'Resume Night Radio' }).click();
    await expect.poll(() => historyText(page), { timeout: 20_000 }).toContainEqual(expect.stringMatching(/^Episode 2: Fetched/));

    // Fetch anyway: the skipped one becomes a download too.
    await history(page).filter({ hasText: 'Bonus chat' }).getByRole('button', { name: 'Fetch anyway' }).click();
    await page.getByText('Fetching Bonus chat').waitFor();
    await expect.poll(() => historyText(page)).toContainEqual(expect.stringMatching(/^Bonus chat: Fetched/));
    await expect
      .poll(() => filesIn(page, folder.id), { timeout: 30_000 })
      .toEqual([`ep1.mp3:${EPISODE.length}`, `ep2.mp3:${EPISODE.length}`, `ep99.mp3:${EPISODE.length}`]);
    expect(await history(page).getByRole('button', { name: 'Fetch anyway' }).count()).toBe(0);
  });

  it('refuses what is not a feed, saying why', { timeout: 60_000 }, async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1366, height: 900 } });
    await signUpInBrowser(page);
    await page.goto('/drive/feeds');
    await page.getByRole('button', { name: 'Add feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Subscribe to a feed' });
    await dialog.getByLabel('Feed address (RSS or Atom)').fill(`${base}/ep1.mp3`);
    await dialog.getByRole('button', { name: 'Subscribe' }).click();
    await dialog.getByText('This is not an RSS or Atom feed.').waitFor();
  });

  it('fits a phone, with its history open', { timeout: 60_000 }, async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 } });
    await signUpInBrowser(page);
    await pageApi(page, 'POST', '/drive/v1/feeds', { url: `${base}/rss`, include: ['a very long pattern that goes on and on for a while'], existing: 'skip' });
    await page.goto('/drive/feeds');
    const row = page.getByRole('list', { name: 'Feeds' }).getByRole('listitem', { name: 'Night Radio' });
    await row.getByRole('button', { name: 'History' }).click();
    await history(page).first().waitFor();
    expect(await fitsWidth(page)).toBe(true);
    for (const name of ['History', 'Pause Night Radio', 'Change Night Radio', 'Unsubscribe from Night Radio']) {
      const box = (await row.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 390, name).toBe(true);
    }
    const fetchAnyway = (await history(page).first().getByRole('button', { name: 'Fetch anyway' }).boundingBox())!;
    expect(fetchAnyway.x + fetchAnyway.width).toBeLessThanOrEqual(390);
  });
});
