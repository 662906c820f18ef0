/**
 * The web app's speed, measured in Chromium through the DevTools protocol:
 *  - the compressed JavaScript a first visit to /drive/all downloads (aim: under 250 KB);
 *  - navigation to the first row painted for a 100,000-file folder, cold (from the API) and warm (from IndexedDB),
 *    beside the reference: the first page of that folder fetched by a bare fetch() in the same page;
 *  - the longest main-thread task while scrolling that folder end to end, in the grid and in the list (aim: none over 50 ms).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { startE2E } from '../e2e/harness.js';
import { seedFolder, signUpApi } from './fixtures.js';

const FILES = Number(process.env.HAUL_BENCH_FILES ?? 100_000);
const WEB_DIR = resolve(import.meta.dirname, '../apps/web/dist');
if (!existsSync(join(WEB_DIR, 'index.html'))) spawnSync('npm', ['run', 'build', '-w', '@haul/web'], { stdio: 'inherit' });

// The browser tests' harness: a real Haul on a temporary SQLite file and Debian's Chromium.
const { haul, base, browser, close } = await startE2E();

try {
  const tokens = await signUpApi(base, 'bench-web@example.com');
  const session = JSON.stringify({
    state: {
      session: {
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: Date.now() + tokens.expires_in * 1000,
        userId: tokens.sub,
      },
    },
    version: 0,
  });
  const t0 = performance.now();
  const folderId = await seedFolder(haul.ctx.db, tokens.sub, 'Big', FILES);
  console.log(`seeded ${FILES} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  await context.addInitScript((s) => {
    if (!localStorage.getItem('haul.session')) localStorage.setItem('haul.session', s);
  }, session);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');

  // 1. Compressed JavaScript of a first visit.
  const scripts = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.set(e.requestId, 0);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (scripts.has(e.requestId)) scripts.set(e.requestId, e.encodedDataLength);
  });
  const tVisit = performance.now();
  // The first visit's full sync of the drive keeps the network busy for a while.
  await page.goto('/drive/all', { waitUntil: 'networkidle', timeout: 300_000 });
  const jsBytes = [...scripts.values()].reduce((a, b) => a + b, 0);

  // The first visit started a full sync of the drive; time it from the visit to its end.
  await page.waitForFunction((uid) => !!JSON.parse(localStorage.getItem(`haul.sync.${uid}`) ?? '{}').fullAt, tokens.sub, {
    timeout: 600_000,
    polling: 250,
  });
  const fullSyncSeconds = (performance.now() - tVisit) / 1000;

  const firstRow = async (p: Page) => {
    await p.goto(`/drive/all/${folderId}`);
    await p.waitForSelector('[data-item]', { timeout: 120_000 });
    return p.evaluate(() => performance.now());
  };
  // 2. First row of the big folder, cold: a new browser profile opens the folder's address directly.
  const fresh = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  await fresh.addInitScript((s) => {
    if (!localStorage.getItem('haul.session')) localStorage.setItem('haul.session', s);
  }, session);
  const freshPage = await fresh.newPage();
  await freshPage.goto('/drive/');
  const reference = await freshPage.evaluate(
    async ({ id, token }) => {
      const t = performance.now();
      const res = await fetch(`/drive/v1/files?parent_id=${id}&limit=100`, { headers: { Authorization: `Bearer ${token}` } });
      await res.json();
      return performance.now() - t;
    },
    { id: folderId, token: tokens.access_token },
  );
  const cold = await firstRow(freshPage);
  await fresh.close();

  // Warm: the profile that holds the whole drive opens the folder again; rows come from IndexedDB.
  const warm = await firstRow(page);

  // The whole folder on screen (the list's row count), then a moment for the rest to settle.
  await page.waitForFunction((n) => Number(document.querySelector('.file-view')?.getAttribute('aria-rowcount')) >= n, FILES, {
    timeout: 120_000,
    polling: 100,
  });
  const loaded = await page.evaluate(() => performance.now());
  await page.waitForTimeout(1000);

  // 3. Longest task while scrolling end to end: a fast fling (one screen a frame) and a very fast one (three).
  const scroll = (screensPerFrame: number) =>
    page.evaluate(async (step) => {
      const tasks: number[] = [];
      const obs = new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push(e.duration)));
      obs.observe({ type: 'longtask', buffered: false });
      const view = document.querySelector<HTMLElement>('.file-view')!;
      view.scrollTop = 0;
      await new Promise((r) => setTimeout(r, 300));
      const start = performance.now();
      let frames = 0;
      while (view.scrollTop + view.clientHeight < view.scrollHeight - 1) {
        view.scrollTop += view.clientHeight * step;
        frames++;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
      }
      await new Promise((r) => setTimeout(r, 200));
      obs.disconnect();
      return { frames, ms: performance.now() - start, longest: tasks.length ? Math.max(...tasks) : 0, longTasks: tasks.length };
    }, screensPerFrame);
  const fling = await scroll(1);
  const fast = await scroll(3);
  // The same in the list view (the grid is the default).
  await page.getByRole('button', { name: 'List view' }).first().click();
  await page.waitForSelector('.file-view.list [data-item]');
  await page.waitForTimeout(1000);
  const listFling = await scroll(1);
  const listFast = await scroll(3);

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log('\nweb app, Chromium, %d files in one folder', FILES);
  console.log(`  JavaScript of a first visit (compressed): ${kb(jsBytes)} in ${scripts.size} files   (aim < 250 KB)`);
  console.log(
    `  first row painted, cold (API):            ${cold.toFixed(0)} ms   reference fetch of the first page: ${reference.toFixed(0)} ms   ratio ${(cold / reference).toFixed(1)}x`,
  );
  console.log(`  full sync of the drive (first visit):     ${fullSyncSeconds.toFixed(1)} s`);
  console.log(`  first row painted, warm (IndexedDB):      ${warm.toFixed(0)} ms`);
  console.log(`  whole folder on screen (from IndexedDB):  ${loaded.toFixed(0)} ms`);
  for (const [label, r] of [
    ['grid, one screen a frame', fling],
    ['grid, three screens a frame', fast],
    ['list, one screen a frame', listFling],
    ['list, three screens a frame', listFast],
  ] as const) {
    console.log(
      `  scroll end to end, ${label}: ${r.frames} frames in ${r.ms.toFixed(0)} ms, long tasks ${r.longTasks}, longest ${r.longest.toFixed(0)} ms   (aim: none over 50 ms)`,
    );
  }
} finally {
  await close();
}
