/**
 * The first paint: on a cold start, index.html draws the open folder's first page (from its early request) before
 * the app's scripts have loaded, in the visitor's language and saved order, and the app's own list replaces it in the
 * same place. The app's entry script is held back here, so what shows meanwhile can only be the first paint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { fitsWidth, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let session: string;
beforeAll(async () => {
  e2e = await startE2E();
  const { page, context } = await e2e.newPage();
  await signUpInBrowser(page);
  const userId = await sessionUserId(page);
  session = await page.evaluate(() => localStorage.getItem('haul.session')!);
  await context.close();
  await createFolder(e2e.haul.ctx, userId, '', 'Música');
  for (const [name, bytes] of [
    ['report.pdf', 3000],
    ['<img src=x onerror="window.hit=1">.txt', 10],
    ['clip.mp4', 5000],
  ] as const) {
    await e2e.seedFile(userId, '', name, 'x'.repeat(bytes));
  }
});
afterAll(() => e2e?.close());

/** A new profile holding only the session, in Spanish, with the list view; the app's entry script held until released. */
async function coldPage(viewport: { width: number; height: number }): Promise<{ page: Page; release: () => void }> {
  const { page } = await e2e.newPage({ viewport, locale: 'es-ES' });
  await page.addInitScript((s) => {
    localStorage.setItem('haul.session', s);
    const display = { global: { orderType: 'NAME_ASC', pinFoldersTop: true, viewType: 'list', last_modified: 0 }, orderSettingGlobal: true, viewSettingGlobal: true, byKey: {} };
    localStorage.setItem('haul.display', JSON.stringify({ state: display, version: 0 }));
  }, session);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/drive\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return { page, release };
}

const paintedNames = (page: Page) => page.locator('#first-paint .fname > span:first-child').allTextContents();
const appNames = (page: Page) => page.locator('[data-item] .fname > span:first-child').allTextContents();

describe('the first paint of a cold start', () => {
  it('shows the folder before the app runs, then the app takes over in the same order', async () => {
    const { page, release } = await coldPage({ width: 1280, height: 800 });
    await page.goto('/drive/all', { waitUntil: 'commit' });
    await page.locator('#first-paint .vrow').first().waitFor();
    // Nothing of the app has run: no row of its own, only the first paint.
    expect(await page.locator('[data-item]').count()).toBe(0);
    const painted = await paintedNames(page);
    expect(painted).toEqual(['Música', '<img src=x onerror="window.hit=1">.txt', 'clip.mp4', 'report.pdf']);
    // In the visitor's language, names as text (the markup in a name neither shown as an image nor run).
    await expect.poll(() => page.locator('#first-paint h1').textContent()).toBe('Todos los archivos');
    expect(await page.locator('#first-paint .list-head').textContent()).toContain('Nombre');
    expect(await page.evaluate(() => (window as unknown as { hit?: number }).hit)).toBeUndefined();
    expect(await page.locator('#first-paint img').count()).toBe(0);

    release();
    await page.locator('[data-item]').first().waitFor();
    expect(await page.locator('#first-paint').count()).toBe(0);
    expect(await appNames(page)).toEqual(painted);
    // The app's first row sits where the first paint drew it.
    await page.getByRole('row', { name: 'Música' }).click();
    expect(await page.getByRole('row', { name: 'Música' }).getAttribute('aria-selected')).toBe('true');
  });

  it('fits a phone, and takes no tap of its own', async () => {
    const { page, release } = await coldPage({ width: 390, height: 844 });
    await page.goto('/drive/all', { waitUntil: 'commit' });
    await page.locator('#first-paint .vrow').first().waitFor();
    expect(await fitsWidth(page)).toBe(true);
    expect(await page.locator('#first-paint .list-head').count()).toBe(0);
    expect(await page.locator('#first-paint').evaluate((e) => getComputedStyle(e).pointerEvents)).toBe('none');
    release();
    await page.locator('[data-item]').first().waitFor();
    expect(await page.locator('#first-paint').count()).toBe(0);
  });

  it('starts the app without waiting for a slow first page', async () => {
    const { page, release } = await coldPage({ width: 1280, height: 800 });
    release();
    let answer!: () => void;
    const held = new Promise<void>((r) => (answer = r));
    await page.route(/\/drive\/v1\/files\?/, async (route) => {
      await held;
      await route.continue();
    });
    const entry = page.waitForRequest(/\/drive\/assets\/index-[^/]+\.js$/);
    await page.goto('/drive/all', { waitUntil: 'commit' });
    // The app's entry script is asked for while the folder's first page is still on its way.
    await entry;
    expect(await page.locator('[data-item], #first-paint').count()).toBe(0);
    answer();
    await page.locator('[data-item]').first().waitFor();
    expect(await appNames(page)).toHaveLength(4);
  });

  it('is not drawn once the app shows its list, nor for a visitor signed out', async () => {
    const { page, release } = await coldPage({ width: 1280, height: 800 });
    release();
    await page.goto('/drive/all');
    await page.locator('[data-item]').first().waitFor();
    expect(await page.locator('#first-paint').count()).toBe(0);
    // Signed out: no early request, so nothing to draw; the sign-in page shows.
    const { page: out } = await e2e.newPage();
    await out.goto('/drive/all');
    await out.locator('#login-title').waitFor();
    expect(await out.locator('#first-paint').count()).toBe(0);
  });
});
