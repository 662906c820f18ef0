/** Search, keyboard and drag, theme and language, the phone layout. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addNew, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const selectedNames = (page: Page) =>
  page.locator('[role=row][aria-selected=true]').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? '').sort());

describe('working in the drive', () => {
  it('searches by name with filters kept in the address, highlights the keyword and remembers terms', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await e2e.seedFile(uid, '', 'Holiday photo.jpg', 'jpg bytes');
    await e2e.seedFile(uid, '', 'holiday notes.txt', 'notes');
    await e2e.seedFile(uid, '', 'Budget.xlsx', 'sheet');
    await page.reload();
    await listView(page);
    await expect.poll(() => rowNames(page)).toHaveLength(3);

    await page.getByLabel('Search your files').fill('HOLIDAY');
    await page.keyboard.press('Enter');
    await page.waitForURL(/action=search/);
    expect(new URL(page.url()).searchParams.get('name')).toBe('HOLIDAY');
    // Exactly the two matches (the folder's three rows also contain them, so wait for the results proper).
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['Holiday photo.jpg', 'holiday notes.txt']);
    expect(await page.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['Holiday', 'holiday']));

    await page.getByRole('button', { name: 'Images' }).click();
    await page.waitForURL(/mime_type=image/);
    await expect.poll(() => rowNames(page)).toEqual(['Holiday photo.jpg']);
    await page.reload();
    await expect.poll(() => rowNames(page)).toEqual(['Holiday photo.jpg']);

    await page.getByRole('button', { name: 'Leave search' }).click();
    await expect.poll(() => rowNames(page)).toHaveLength(3);
    const history = await page.evaluate(() => localStorage.getItem('haul.searchHistory'));
    expect(JSON.parse(history!)).toEqual(['HOLIDAY']);
  });

  it('selects with shift and ctrl, the keyboard and a drag box, and moves items by dragging them onto a folder', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    for (const n of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) await e2e.seedFile(uid, '', n, n);
    await page.reload();
    await addNew(page, 'New folder');
    await page.getByRole('dialog').getByLabel('Name').fill('Box');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await listView(page);
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'a.txt', 'b.txt', 'c.txt', 'd.txt']);

    await page.getByRole('row', { name: 'a.txt' }).click();
    await page.getByRole('row', { name: 'c.txt' }).click({ modifiers: ['Shift'] });
    expect(await selectedNames(page)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    await page.getByRole('row', { name: 'b.txt' }).click({ modifiers: ['Control'] });
    expect(await selectedNames(page)).toEqual(['a.txt', 'c.txt']);
    await page.keyboard.press('Escape');
    expect(await selectedNames(page)).toEqual([]);
    await page.getByRole('row', { name: 'a.txt' }).click();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    expect(await selectedNames(page)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    await page.keyboard.press('Control+a');
    expect(await selectedNames(page)).toHaveLength(5);

    // A drag box from empty space below the rows up over the last two.
    const view = page.getByRole('table');
    const vb = (await view.boundingBox())!;
    const d = (await page.getByRole('row', { name: 'd.txt' }).boundingBox())!;
    const c = (await page.getByRole('row', { name: 'c.txt' }).boundingBox())!;
    await page.mouse.move(vb.x + vb.width - 40, d.y + d.height + 60);
    await page.mouse.down();
    await page.mouse.move(vb.x + vb.width - 60, c.y + 10, { steps: 5 });
    await page.mouse.up();
    expect(await selectedNames(page)).toEqual(['c.txt', 'd.txt']);

    // Drag the two onto the folder.
    await page.getByRole('row', { name: 'd.txt' }).dragTo(page.getByRole('row', { name: 'Box' }));
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'a.txt', 'b.txt']);
    await page.getByRole('row', { name: 'Box' }).dblclick();
    await expect.poll(() => rowNames(page)).toEqual(['c.txt', 'd.txt']);
  });

  it('scrolls a long folder reusing its row elements, each row showing and selecting its own file', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const names = Array.from({ length: 240 }, (_, i) => `file-${String(i).padStart(3, '0')}.txt`);
    for (let i = 0; i < names.length; i += 40) await Promise.all(names.slice(i, i + 40).map((n) => e2e.seedFile(uid, '', n, n)));
    await page.reload();
    await listView(page);
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
    // The whole folder is listed (rows arriving from a sync show at most once a second) and sorted.
    await expect.poll(() => page.locator('.file-view').getAttribute('aria-rowcount')).toBe(String(names.length));
    await expect.poll(async () => (await rowNames(page))[0]).toBe('file-000.txt');

    // Scroll to the end a screen a frame, counting the item elements created on the way (after the first step, which
    // makes room for the rows above the screen).
    const created = await page.evaluate(async () => {
      const view = document.querySelector<HTMLElement>('.file-view')!;
      view.scrollTop += view.clientHeight;
      await new Promise((r) => setTimeout(r, 100));
      let items = 0;
      const mo = new MutationObserver((ms) =>
        ms.forEach((m) =>
          m.addedNodes.forEach((n) => {
            if (n instanceof HTMLElement) items += n.matches('[data-item]') ? 1 : n.querySelectorAll('[data-item]').length;
          }),
        ),
      );
      mo.observe(view, { subtree: true, childList: true });
      while (view.scrollTop + view.clientHeight < view.scrollHeight - 1) {
        view.scrollTop += view.clientHeight;
        await new Promise((r) => requestAnimationFrame(r));
      }
      await new Promise((r) => setTimeout(r, 100));
      mo.disconnect();
      return items;
    });
    expect(created).toBe(0);

    // The rows on screen are the last ones, each with its own name, and a click selects that file.
    const shown = await page
      .getByRole('row')
      .evaluateAll((rows) =>
        rows.map((r) => [r.getAttribute('aria-label'), r.querySelector('.fname > span')?.textContent, r.getAttribute('aria-rowindex')]),
      );
    expect(
      shown.map(([label]) => label),
      JSON.stringify(shown),
    ).toContain('file-239.txt');
    for (const [label, text, rowIndex] of shown) {
      expect(text).toBe(label);
      expect(names[Number(rowIndex) - 1]).toBe(label);
    }
    await page.getByRole('row', { name: 'file-237.txt' }).click();
    expect(await selectedNames(page)).toEqual(['file-237.txt']);
  });

  it('downloads a file through its signed link, and lists recent files', async () => {
    const { page } = await e2e.newPage({ acceptDownloads: true });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await e2e.seedFile(uid, '', 'report.txt', 'quarterly numbers');
    await page.reload();
    await listView(page);
    await page.getByRole('row', { name: 'report.txt' }).click({ button: 'right' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('report.txt');
    const { readFile } = await import('node:fs/promises');
    expect(await readFile((await download.path())!, 'utf8')).toBe('quarterly numbers');

    await page.getByRole('link', { name: 'Recent' }).click();
    await expect.poll(() => rowNames(page)).toContain('report.txt');
  });

  it('switches to the dark theme and another language, and remembers both', async () => {
    const { page } = await e2e.newPage({ colorScheme: 'light' });
    await signUpInBrowser(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.getByRole('button', { name: 'Theme' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).not.toBe('rgb(255, 255, 255)');

    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitemradio', { name: 'Español' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('es');
    const allFiles = await page.getByRole('navigation').first().getByRole('link').first().textContent();
    expect(allFiles).not.toBe('All files');

    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await page.getByRole('navigation').first().getByRole('link').first().textContent()).toBe(allFiles);
  });

  it('works on a phone: the menu is a drawer, a tap opens a folder', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const res = await e2e.haul.app.inject({
      method: 'POST',
      url: '/drive/v1/files',
      headers: {
        authorization: `Bearer ${await page.evaluate(() => JSON.parse(localStorage.getItem('haul.session')!).state.session.accessToken)}`,
      },
      payload: { kind: 'drive#folder', name: 'Phone folder', parent_id: '' },
    });
    expect(res.statusCode).toBe(200);
    await e2e.seedFile(uid, res.json().file.id, 'inside.txt', 'x');
    await page.reload();
    expect(await page.getByRole('link', { name: 'Trash' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).tap();
    await expect.poll(() => page.getByRole('link', { name: 'Trash' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'All files' }).first().tap();
    await expect.poll(() => page.getByRole('link', { name: 'Trash' }).isVisible()).toBe(false);

    await listView(page);
    await page.getByRole('row', { name: 'Phone folder' }).tap();
    await page.waitForURL(/\/drive\/all\/[\w-]+$/);
    await expect.poll(() => rowNames(page)).toEqual(['inside.txt']);
    const header = await page.locator('header').boundingBox();
    expect(header?.height).toBe(64);
  });
});
