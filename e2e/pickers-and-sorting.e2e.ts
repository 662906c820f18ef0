/**
 * Folder pickers that make folders (move, save from a share), a share's pass code kept across tabs, a share of one
 * folder opening into it, and sorting the list by its column titles (a header row the keyboard reaches) and by type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, listView, rowNames, sessionUserId, shareAsOwner, signUpInBrowser, startE2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** A signed-in owner with the given files at the top of their drive, in the list view. */
async function ownerWith(files: Record<string, string>, folders: string[] = []): Promise<{ page: Page; userId: string }> {
  const { page } = await e2e.newPage();
  await signUpInBrowser(page);
  const userId = await sessionUserId(page);
  for (const name of folders) await createFolder(e2e.haul.ctx, userId, '', name);
  for (const [name, content] of Object.entries(files)) await e2e.seedFile(userId, '', name, content);
  await page.reload();
  await listView(page);
  await expect.poll(async () => (await rowNames(page)).length).toBe(folders.length + Object.keys(files).length);
  return { page, userId };
}

const askedForCode = (page: Page) => page.getByText('Enter the pass code to open this share');

describe('folder pickers', () => {
  it('moves a file into a folder made from the move picker', async () => {
    const { page } = await ownerWith({ 'report.txt': 'figures' }, ['Old']);
    await page.getByRole('row', { name: 'report.txt' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog');
    // Escape in the name field leaves the field, not the picker.
    await dialog.getByRole('button', { name: 'New folder' }).click();
    await dialog.getByLabel('Name').press('Escape');
    await dialog.getByRole('button', { name: 'New folder' }).click();
    await dialog.getByLabel('Name').fill('Inbox');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    // Made in the folder shown (the top) and chosen: the picker now shows it as the destination.
    await dialog.getByRole('navigation', { name: 'Destination' }).getByRole('button', { name: 'Inbox' }).waitFor();
    await dialog.getByRole('button', { name: 'Move here' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Inbox', 'Old']);
    await page.getByRole('row', { name: 'Inbox' }).dblclick();
    await expect.poll(() => rowNames(page)).toEqual(['report.txt']);
  });

  it('saves a share into a folder made from the save picker', async () => {
    const { page: owner, userId } = await ownerWith({});
    const doc = await e2e.seedFile(userId, '', 'plan.txt', 'the plan');
    const shareId = await shareAsOwner(owner, [doc.id]);
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await page.goto(`/s/${shareId}`);
    await page.getByRole('button', { name: 'Save to my drive' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'New folder' }).click();
    await dialog.getByLabel('Name').fill('From friends');
    await dialog.getByLabel('Name').press('Enter');
    await dialog.getByRole('button', { name: 'Save to “From friends”' }).click();
    await page.getByText('Saved 1 item to “From friends”').waitFor();
  });
});

describe('share pages', () => {
  it('keeps a pass code for other tabs of the same share until its token expires, not for other shares', async () => {
    const { page: owner, userId } = await ownerWith({});
    const photo = await e2e.seedFile(userId, '', 'kite.txt', 'a kite');
    const other = await e2e.seedFile(userId, '', 'other.txt', 'another');
    const first = await shareAsOwner(owner, [photo.id], 'kite');
    const second = await shareAsOwner(owner, [other.id], 'moon');

    const { page: tab, context } = await e2e.newPage();
    await tab.goto(`/s/${first}`);
    await tab.getByLabel('Pass code').fill('kite');
    await tab.getByRole('button', { name: 'Open' }).click();
    await tab.getByRole('heading', { name: 'kite.txt' }).waitFor();

    // A second tab of the same browser: the share opens straight away.
    const tab2 = await context.newPage();
    await tab2.goto(`/s/${first}`);
    await tab2.getByRole('heading', { name: 'kite.txt' }).waitFor();
    expect(await askedForCode(tab2).count()).toBe(0);

    // Another share still asks for its own code.
    const tab3 = await context.newPage();
    await tab3.goto(`/s/${second}`);
    await askedForCode(tab3).waitFor();

    // Kept no longer than the token works: the kept expiry is the token's own, and once past it the code is asked again.
    const kept = await tab2.evaluate((id) => JSON.parse(localStorage.getItem(`haul.share-token.${id}`) ?? 'null'), first);
    expect(kept.expires).toBe(Number(kept.token.split('.')[0]));
    expect(kept.expires).toBeGreaterThan(Date.now());
    await tab2.evaluate(
      ({ id, token }) => localStorage.setItem(`haul.share-token.${id}`, JSON.stringify({ token, expires: Date.now() - 1000 })),
      { id: first, token: kept.token },
    );
    await tab2.reload();
    await askedForCode(tab2).waitFor();
  });

  it('opens a share of one folder at its contents, with the folder’s name as the first crumb', async () => {
    const { page: owner, userId } = await ownerWith({});
    const album = await createFolder(e2e.haul.ctx, userId, '', 'Album');
    const inner = await createFolder(e2e.haul.ctx, userId, album.id, 'Inner');
    await e2e.seedFile(userId, album.id, 'beach.jpg', 'not really a photo');
    await e2e.seedFile(userId, inner.id, 'deep.txt', 'deep');
    const shareId = await shareAsOwner(owner, [album.id]);

    const { page } = await e2e.newPage();
    await page.goto(`/s/${shareId}`);
    await page.getByRole('heading', { name: 'Album' }).waitFor();
    await expect.poll(() => page.locator('.public-name').allTextContents()).toEqual(['Inner', 'beach.jpg']);
    const crumbs = page.getByRole('navigation', { name: 'Folder path' });
    expect(await crumbs.getByRole('button').allTextContents()).toEqual(['Album']);

    await page.getByRole('button', { name: 'Inner', exact: true }).click();
    await expect.poll(() => page.locator('.public-name').allTextContents()).toEqual(['deep.txt']);
    expect(await crumbs.getByRole('button').allTextContents()).toEqual(['Album', 'Inner']);
    await crumbs.getByRole('button', { name: 'Album' }).click();
    await expect.poll(() => page.locator('.public-name').allTextContents()).toEqual(['Inner', 'beach.jpg']);
  });
});

describe('sorting', () => {
  const header = (page: Page, name: string) => page.locator('.list-head [role=columnheader]', { hasText: name });
  const sorted = (page: Page) =>
    page.locator('.list-head [aria-sort]').evaluateAll((els) => els.map((el) => [el.textContent, el.getAttribute('aria-sort')]));

  it('sorts by clicking the column titles, again to reverse, and by type from the Sort menu, folders first', async () => {
    const { page } = await ownerWith({ 'b.txt': 'bbb', 'a.pdf': 'aaaaaaaaaa', 'c.jpg': 'c' }, ['Zeta', 'Alpha']);

    await header(page, 'Name').locator('button').click();
    await expect.poll(() => rowNames(page)).toEqual(['Alpha', 'Zeta', 'a.pdf', 'b.txt', 'c.jpg']);
    expect(await sorted(page)).toEqual([['Name', 'ascending']]);

    await header(page, 'Name').locator('button').click();
    await expect.poll(() => rowNames(page)).toEqual(['Zeta', 'Alpha', 'c.jpg', 'b.txt', 'a.pdf']);
    expect(await sorted(page)).toEqual([['Name', 'descending']]);

    // Size: the largest first, then the smallest; folders stay on top.
    await header(page, 'Size').locator('button').click();
    await expect.poll(async () => (await rowNames(page)).slice(2)).toEqual(['a.pdf', 'b.txt', 'c.jpg']);
    expect(await sorted(page)).toEqual([['Size', 'descending']]);
    await header(page, 'Size').locator('button').click();
    await expect.poll(async () => (await rowNames(page)).slice(2)).toEqual(['c.jpg', 'b.txt', 'a.pdf']);
    expect(await sorted(page)).toEqual([['Size', 'ascending']]);

    await header(page, 'Modified').locator('button').click();
    expect(await sorted(page)).toEqual([['Modified', 'descending']]);

    // Type, from the Sort menu: by extension Z to A, folders first; no column title is marked sorted.
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Type (Z to A)' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Alpha', 'Zeta', 'b.txt', 'a.pdf', 'c.jpg']);
    expect(await sorted(page)).toEqual([]);
    // And A to Z, the other way round.
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Type (A to Z)' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Alpha', 'Zeta', 'c.jpg', 'a.pdf', 'b.txt']);

    // The menu follows a column title's choice, and the choice outlives a reload.
    await page.keyboard.press('Escape');
    await header(page, 'Name').locator('button').click();
    await page.reload();
    await expect.poll(() => rowNames(page)).toEqual(['Alpha', 'Zeta', 'a.pdf', 'b.txt', 'c.jpg']);
    await page.getByRole('button', { name: 'Sort' }).click();
    expect(await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).getAttribute('aria-checked')).toBe('true');
  });

  it("offers the column titles as the list's header row, to the keyboard and screen readers too", async () => {
    const { page } = await ownerWith({ 'b.txt': 'bbb', 'a.pdf': 'aaaaaaaaaa', 'c.jpg': 'c' }, ['Zeta', 'Alpha']);
    const grid = page.getByRole('grid');
    const head = grid.getByRole('row').first();
    expect(await head.getAttribute('aria-rowindex')).toBe('1');
    expect(await head.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Size', 'Modified']);
    expect(await grid.getAttribute('aria-rowcount')).toBe('6');
    // The files are the rows after it; the titles' row is not one of them.
    expect(await rowNames(page)).toHaveLength(5);
    expect(await page.getByRole('row', { name: 'Alpha' }).getAttribute('aria-rowindex')).not.toBe('1');

    // From the list, Tab reaches the titles; Enter and Space sort, and open nothing (a file is selected).
    await page.getByRole('row', { name: 'a.pdf' }).click();
    const focused = () => page.evaluate(() => document.activeElement?.closest('[role=columnheader]')?.textContent ?? '');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Name');
    await page.keyboard.press('Enter');
    await expect.poll(() => rowNames(page)).toEqual(['Alpha', 'Zeta', 'a.pdf', 'b.txt', 'c.jpg']);
    expect(await sorted(page)).toEqual([['Name', 'ascending']]);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Size');
    await page.keyboard.press('Space');
    await expect.poll(async () => (await rowNames(page)).slice(2)).toEqual(['a.pdf', 'b.txt', 'c.jpg']);
    expect(await sorted(page)).toEqual([['Size', 'descending']]);
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.locator('[role=row][aria-selected=true]').getAttribute('aria-label')).toBe('a.pdf');
  });
});
