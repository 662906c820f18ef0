/**
 * A walk through the drive with the keyboard and on a phone: the skip link, focus after a dialog closes and after a
 * folder opens, `/` to search, the account tabs on a phone, tooltips on icon buttons, the empty folder on a phone, and
 * no React Router warning on fresh loads of lazy pages.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { addNew, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** What has the keyboard: its tag, class, name and text, to compare and to read in a failure. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      list: !!el?.closest('.file-view'),
      label: el?.getAttribute('aria-label') ?? '',
      text: (el?.textContent ?? '').trim().slice(0, 60),
    };
  });

describe('the keyboard and the phone', () => {
  it('offers "Skip to files" on the first Tab, shown while focused, and Enter puts the keyboard in the list', async () => {
    const { page } = await e2e.newPage(DESKTOP);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    for (const n of ['a.txt', 'b.txt']) await e2e.seedFile(uid, '', n, n);
    await page.reload();
    await listView(page);
    // Anew, so nothing was clicked: Tab starts from the top of the page (the list view is remembered).
    await page.reload();
    await expect.poll(() => rowNames(page)).toHaveLength(2);

    const skip = page.getByRole('link', { name: 'Skip to files' });
    const before = (await skip.boundingBox())!;
    expect(before.y + before.height, 'out of sight until focused').toBeLessThanOrEqual(0);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Skip to files' });
    await expect.poll(async () => (await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatchObject({ list: true });
    expect(new URL(page.url()).hash).toBe('');
    // From the list the arrows work at once.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('[role=row][aria-selected=true]').count()).toBe(1);
  });

  it('gives focus back to the control that opened a dialog', async () => {
    const { page } = await e2e.newPage(DESKTOP);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await e2e.seedFile(uid, '', 'notes.txt', 'x');
    await page.reload();
    await listView(page);
    await expect.poll(() => rowNames(page)).toEqual(['notes.txt']);

    // From a menu: back on the button that opened the menu.
    await addNew(page, 'New folder');
    await page.getByRole('dialog').getByLabel('Name').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'button', label: 'New' });

    // From the list's menu, opened with the keyboard: back in the list.
    await page.getByRole('row', { name: 'notes.txt' }).click();
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => focused(page)).toMatchObject({ list: true });
  });

  it('puts focus on the list or the heading of a folder opened from the keyboard', async () => {
    const { page } = await e2e.newPage(DESKTOP);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const trip = await createFolder(e2e.haul.ctx, uid, '', 'Trip');
    await createFolder(e2e.haul.ctx, uid, '', 'Empty');
    await e2e.seedFile(uid, trip.id, 'route.gpx', '<gpx/>');
    await page.reload();
    await listView(page);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['Empty', 'Trip']);

    await page.getByRole('row', { name: 'Trip' }).click();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/drive/all/${trip.id}`);
    await expect.poll(() => rowNames(page)).toEqual(['route.gpx']);
    await expect.poll(() => focused(page)).toMatchObject({ list: true });

    await page.goBack();
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['Empty', 'Trip']);
    await page.getByRole('row', { name: 'Empty' }).click();
    await page.keyboard.press('Enter');
    await page.getByText('This folder is empty').waitFor();
    // No list to land on: the folder's heading.
    await expect.poll(() => focused(page)).toMatchObject({ tag: 'h1', text: 'Empty' });
  });

  it('goes to the search box with / outside text fields, and types / inside them', async () => {
    const { page } = await e2e.newPage(DESKTOP);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await e2e.seedFile(uid, '', 'notes.txt', 'x');
    await page.reload();
    await listView(page);
    await expect.poll(() => rowNames(page)).toEqual(['notes.txt']);
    const search = page.getByLabel('Search your files');

    // Nothing focused.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    expect(await focused(page)).toMatchObject({ tag: 'input', label: 'Search your files' });
    expect(await search.inputValue()).toBe('');
    // In the search box itself, / is a character.
    await page.keyboard.type('a/b');
    expect(await search.inputValue()).toBe('a/b');
    await page.waitForURL(/name=a%2Fb/);

    // From the list.
    await page.getByRole('link', { name: 'All files' }).first().click();
    await expect.poll(() => rowNames(page)).toEqual(['notes.txt']);
    await page.getByRole('row', { name: 'notes.txt' }).click();
    expect(await focused(page)).toMatchObject({ list: true });
    const typed = await search.inputValue();
    await page.keyboard.press('/');
    expect(await focused(page)).toMatchObject({ tag: 'input', label: 'Search your files' });
    expect(await search.inputValue()).toBe(typed);

    // In a dialog's text field, / is typed there.
    await search.blur();
    await addNew(page, 'New folder');
    const name = page.getByRole('dialog').getByLabel('Name');
    await name.fill('');
    await name.press('/');
    expect(await name.inputValue()).toBe('/');
    expect(await search.inputValue()).not.toContain('/');
  });

  it('on a phone, the account tabs scroll sideways within the page, show that they do, and each can be reached', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signUpInBrowser(page);
    await page.goto('/drive/account/basic');
    const nav = page.getByRole('navigation', { name: 'Account', exact: true });
    const tabs = nav.getByRole('link');
    await expect.poll(() => tabs.count()).toBe(13);
    await page.getByRole('heading', { name: 'Profile' }).waitFor();

    // The page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const strip = () =>
      nav.evaluate((el) => ({
        overflows: el.scrollWidth > el.clientWidth,
        more: (el as HTMLElement).dataset.more ?? '',
        mask: getComputedStyle(el).maskImage,
      }));
    const first = await strip();
    if (first.overflows) {
      // A cue at the end that has more: a fade, named by data-more.
      expect(first.more).toBe('end');
      expect(first.mask).toContain('gradient');
      await nav.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await expect.poll(async () => (await strip()).more).toBe('start');
      expect((await strip()).mask).toContain('gradient');
    }

    // Every tab comes into the strip's view when the keyboard reaches it.
    const box = (await nav.boundingBox())!;
    const names = await tabs.allTextContents();
    for (const name of names) {
      const tab = nav.getByRole('link', { name, exact: true });
      await tab.focus();
      await expect
        .poll(async () => {
          const b = (await tab.boundingBox())!;
          return { name, inside: b.x >= box.x - 1 && b.x + b.width <= box.x + box.width + 1, x: b.x, right: b.x + b.width };
        })
        .toMatchObject({ inside: true });
    }
    await nav.getByRole('link', { name: 'Delete account' }).tap();
    await page.waitForURL('**/drive/account/destroy');

    // Opened directly, the current page's tab is in view.
    await page.goto('/drive/account/webdav');
    const current = nav.getByRole('link', { name: 'WebDAV' });
    await current.waitFor();
    await expect
      .poll(async () => {
        const b = (await current.boundingBox())!;
        const n = (await nav.boundingBox())!;
        return b.x >= n.x - 1 && b.x + b.width <= n.x + n.width + 1;
      })
      .toBe(true);
  });

  it('gives every icon-only button on the first screen a tooltip that says its name', async () => {
    const { page } = await e2e.newPage(DESKTOP);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await e2e.seedFile(uid, '', 'notes.txt', 'x');
    await page.reload();
    await page.getByRole('gridcell', { name: 'notes.txt' }).waitFor();
    const buttons = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('button, [role=button]')]
          .filter((b) => b.getClientRects().length > 0 && b.innerText.trim() === '')
          .map((b) => ({ name: b.getAttribute('aria-label') ?? '', title: b.getAttribute('title') ?? '' })),
      );
    for (const view of ['grid', 'list']) {
      const found = await buttons();
      expect(found.map((b) => b.name)).toEqual(expect.arrayContaining(['Language', 'Theme', 'Sort']));
      for (const b of found) {
        expect(b.name, `${view}: ${JSON.stringify(b)}`).not.toBe('');
        expect(b.title, `${view}: ${JSON.stringify(b)}`).toBe(b.name);
      }
      if (view === 'grid') await listView(page);
    }
  });

  it('on a phone, the empty folder says to tap + rather than to drop files', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signUpInBrowser(page);
    const empty = page.getByRole('status').filter({ hasText: 'This folder is empty' });
    await empty.waitFor();
    const text = await empty.textContent();
    expect(text).toContain('Tap + to upload files or fetch a link');
    expect(text).not.toMatch(/drop/i);
    expect(await page.getByRole('button', { name: 'New', exact: true }).isVisible()).toBe(true);

    // A desktop still offers the drop.
    const { page: desk } = await e2e.newPage(DESKTOP);
    await signUpInBrowser(desk);
    await desk
      .getByRole('status')
      .filter({ hasText: 'This folder is empty' })
      .getByText(/drop files/)
      .waitFor();
  });

  it('logs no React Router warning on fresh loads of lazily loaded pages', async () => {
    const { page } = await e2e.newPage(DESKTOP);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (/HydrateFallback|hydration/i.test(m.text())) warnings.push(`${page.url()}: ${m.type()}: ${m.text()}`);
    });
    await page.goto('/drive/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await signUpInBrowser(page);
    for (const [path, heading] of [
      ['/drive/account/basic', 'Profile'],
      ['/drive/recent', 'Recent'],
      ['/drive/trash', 'Trash'],
      ['/drive/account/devices', 'Signed-in devices'],
    ]) {
      await page.goto(path!);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
    }
    expect(warnings).toEqual([]);
  });
});
