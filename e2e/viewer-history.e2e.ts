/**
 * The viewer in the address: opening a file is a history entry naming it in its folder, next and previous replace
 * it, Back closes the viewer where the list was, Forward and a reload reopen it, and the address opens the file in
 * another tab; an address naming no file of the user's shows the folder alone.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, folderWhole, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, viewer } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

const png = (background: string) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background } })
    .png()
    .toBuffer();
const PHOTOS = ['p1.png', 'p2.png', 'p3.png'];
const FILLERS = Array.from({ length: 30 }, (_, i) => `a${String(i).padStart(2, '0')}.bin`);

/** A folder of 30 files the viewer does not show and three photos, listed by name (the photos last, below the fold). */
async function seed(page: Page) {
  const userId = await sessionUserId(page);
  const folder = await createFolder(e2e.haul.ctx, userId, '', 'Holiday');
  for (const name of FILLERS) await e2e.seedFile(userId, folder.id, name, `note ${name}`);
  const ids: string[] = [];
  for (const [i, name] of PHOTOS.entries())
    ids.push((await e2e.seedFile(userId, folder.id, name, await png(['#c33', '#3c3', '#33c'][i]!))).id);
  await page.goto(`/drive/all/${folder.id}`);
  await listView(page);
  await page.getByRole('button', { name: 'Sort' }).click();
  await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
  await expect.poll(async () => (await rowNames(page))[0]).toBe('a00.bin');
  // Every file, not only those the open page had heard of before the reload.
  await folderWhole(page, 'Holiday', FILLERS.length + PHOTOS.length);
  return { folderUrl: `${e2e.base}/drive/all/${folder.id}`, ids };
}

const count = (page: Page) => viewer(page).getByTestId('viewer-count').textContent();
const shownImage = (page: Page, name: string) =>
  viewer(page)
    .getByRole('img', { name })
    .evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth);
const historyLength = (page: Page) => page.evaluate(() => history.length);
const listScroll = (page: Page) => page.locator('.file-view').evaluate((el) => el.scrollTop);

describe('viewer history', () => {
  it('opening a file is an entry of its own: Back closes it in the folder, Forward and reload reopen it, Esc closes', async () => {
    const { page, context } = await e2e.newPage();
    await signUpInBrowser(page);
    const { folderUrl, ids } = await seed(page);
    const fileUrl = (i: number) => `${folderUrl}?preview=${ids[i]}`;

    // Scrolled down to the photos, the first opens: the address names it in its folder.
    const list = page.getByRole('grid', { name: 'Holiday' });
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.getByRole('row', { name: 'p1.png' }).waitFor();
    const scrolled = await listScroll(page);
    expect(scrolled).toBeGreaterThan(0);
    const before = await historyLength(page);
    await page.getByRole('row', { name: 'p1.png' }).dblclick();
    await expect.poll(() => count(page)).toBe('1 / 3');
    await expect.poll(() => page.url()).toBe(fileUrl(0));
    expect(await historyLength(page)).toBe(before + 1);
    await expect.poll(() => shownImage(page, 'p1.png')).toBe(320);

    // Next replaces the entry: Back will not step through every photo.
    await viewer(page).getByRole('button', { name: 'Next file' }).click();
    await expect.poll(() => count(page)).toBe('2 / 3');
    await expect.poll(() => page.url()).toBe(fileUrl(1));
    expect(await historyLength(page)).toBe(before + 1);

    // Back: the viewer closes and the folder is where it was, scrolled as it was.
    await page.goBack();
    await expect.poll(() => viewer(page).count()).toBe(0);
    await expect.poll(() => page.url()).toBe(folderUrl);
    await expect.poll(() => page.getByRole('row', { name: 'p2.png' }).isVisible()).toBe(true);
    expect(await listScroll(page)).toBe(scrolled);

    // Forward: open again on the second photo, among the same three.
    await page.goForward();
    await expect.poll(() => count(page)).toBe('2 / 3');
    await expect.poll(() => shownImage(page, 'p2.png')).toBe(320);
    expect(page.url()).toBe(fileUrl(1));

    // A reload opens the folder with the viewer on that photo.
    await page.reload();
    await expect.poll(() => count(page)).toBe('2 / 3');
    await expect.poll(() => shownImage(page, 'p2.png')).toBe(320);
    await expect.poll(() => page.getByRole('row', { name: 'a00.bin' }).count()).toBe(1);

    // Esc goes back from the viewer's entry, so Forward opens it again; the close button does the same.
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer(page).count()).toBe(0);
    await expect.poll(() => page.url()).toBe(folderUrl);
    await page.goForward();
    await expect.poll(() => count(page)).toBe('2 / 3');
    await viewer(page).getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => viewer(page).count()).toBe(0);
    await expect.poll(() => page.url()).toBe(folderUrl);

    // The address in another tab of the same session opens the file there; closing it drops the parameter.
    const other = await context.newPage();
    await other.goto(fileUrl(2));
    await expect.poll(() => count(other)).toBe('3 / 3');
    await expect.poll(() => shownImage(other, 'p3.png')).toBe(320);
    const otherLength = await historyLength(other);
    await other.keyboard.press('Escape');
    await expect.poll(() => viewer(other).count()).toBe(0);
    await expect.poll(() => other.url()).toBe(folderUrl);
    expect(await historyLength(other)).toBe(otherLength);
    await other.close();

    // In search results too: the address keeps the search and adds the file; a reload reopens it among the results.
    await page.getByLabel('Search your files').fill('p');
    await page.keyboard.press('Enter');
    await expect.poll(() => rowNames(page)).toEqual(PHOTOS);
    await page.getByRole('row', { name: 'p3.png' }).dblclick();
    await expect.poll(() => count(page)).toBe('3 / 3');
    const found = new URL(page.url());
    expect([found.searchParams.get('action'), found.searchParams.get('name'), found.searchParams.get('preview')]).toEqual([
      'search',
      'p',
      ids[2],
    ]);
    await page.reload();
    await expect.poll(() => count(page)).toBe('3 / 3');
    await page.goBack();
    await expect.poll(() => viewer(page).count()).toBe(0);
    await expect.poll(() => rowNames(page)).toEqual(PHOTOS);
    expect(new URL(page.url()).searchParams.get('preview')).toBeNull();
  });

  it('an address naming no file of the user’s shows the folder alone and says so', async () => {
    const { page: owner } = await e2e.newPage();
    await signUpInBrowser(owner);
    const { ids } = await seed(owner);

    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    for (const id of ['no-such-file', ids[0]!]) {
      await page.goto(`/drive/all?preview=${id}`);
      await expect.poll(() => page.getByText('This file cannot be found.').count()).toBeGreaterThan(0);
      await expect.poll(() => page.url()).toBe(`${e2e.base}/drive/all`);
      expect(await viewer(page).count()).toBe(0);
      await page
        .getByRole('button', { name: 'Close toast' })
        .first()
        .click()
        .catch(() => undefined);
    }
  });
});
