/** Search, keyboard and drag, theme and language, the phone layout. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
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

/** A menu's entries without their key hints. */
const labels = (menu: Locator) => menu.getByRole('menuitem').evaluateAll((items) => items.map((i) => i.firstChild?.textContent ?? ''));

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Switches the file view to the grid; waits for the screen first. */
async function gridView(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /^(List view|Grid view)$/ }).first();
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-label')) === 'Grid view') await toggle.click();
  await page.getByRole('button', { name: 'List view' }).waitFor();
}

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

  it('says which folder each search result is in, and opens that folder with the result selected', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const trips = await createFolder(e2e.haul.ctx, uid, '', 'Trips');
    const italy = await createFolder(e2e.haul.ctx, uid, trips.id, 'Italy');
    await e2e.seedFile(uid, '', 'ticket home.pdf', 'a');
    for (const n of ['ticket rome.pdf', 'hotel.pdf', 'map.png']) await e2e.seedFile(uid, italy.id, n, n);
    await page.goto('/drive/all?action=search&name=ticket');
    await listView(page);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['ticket home.pdf', 'ticket rome.pdf']);

    const rome = page.getByRole('row', { name: 'ticket rome.pdf' }).getByRole('link');
    await expect.poll(() => rome.textContent()).toBe('Italy');
    expect(await rome.getAttribute('title')).toBe('All files › Trips › Italy');
    expect(await page.getByRole('row', { name: 'ticket home.pdf' }).getByRole('link').textContent()).toBe('All files');
    // The grid says it too, on a line of its own.
    await gridView(page);
    const tile = page.getByRole('gridcell', { name: 'ticket rome.pdf' }).locator('.floc');
    await expect.poll(() => tile.textContent()).toBe('Italy');
    await listView(page);

    // A click in the middle of the row selects it; the folder's link opens the folder.
    await page.getByRole('row', { name: 'ticket rome.pdf' }).click();
    expect(await selectedNames(page)).toEqual(['ticket rome.pdf']);
    expect(new URL(page.url()).searchParams.get('action')).toBe('search');
    await rome.click();
    await page.waitForURL(`**/drive/all/${italy.id}`);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['hotel.pdf', 'map.png', 'ticket rome.pdf']);
    await expect.poll(() => selectedNames(page)).toEqual(['ticket rome.pdf']);

    // From the keyboard: the result's menu has "Show in folder"; the top opens as All files.
    await page.goBack();
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['ticket home.pdf', 'ticket rome.pdf']);
    await page.getByRole('row', { name: 'ticket home.pdf' }).locator('.fname').click();
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menuitem', { name: 'Show in folder' }).click();
    await page.waitForURL(/\/drive\/all$/);
    await expect.poll(() => rowNames(page)).toContain('Trips');
    await expect.poll(() => selectedNames(page)).toEqual(['ticket home.pdf']);
  });

  it('opens the menu of the focused item with Shift+F10 and the menu key, at the item; Escape gives focus back', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await createFolder(e2e.haul.ctx, uid, '', 'Box');
    for (const n of ['a.txt', 'b.txt', 'c.txt']) await e2e.seedFile(uid, '', n, n);
    await page.reload();
    await listView(page);
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.getByRole('menuitemradio', { name: 'Name (A to Z)' }).click();
    await expect.poll(() => rowNames(page)).toEqual(['Box', 'a.txt', 'b.txt', 'c.txt']);

    await page.getByRole('row', { name: 'a.txt' }).click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'File actions' });
    await menu.waitFor();
    // Share and star are on the selection bar on a desktop; the menu has them on a phone only.
    expect(await labels(menu)).toEqual(['Open', 'Details', 'Download', 'Move to…', 'Copy to…', 'Rename', 'Delete']);
    expect(await selectedNames(page)).toEqual(['b.txt']);
    // At the item, not at the list's corner (rows are hidden from the accessibility tree while the menu is open).
    const row = (await page.locator('[data-item][aria-label="b.txt"]').boundingBox())!;
    const at = (await menu.boundingBox())!;
    expect(at.y).toBeGreaterThanOrEqual(row.y);
    expect(at.y).toBeLessThanOrEqual(row.y + row.height);
    // The keyboard is in the menu, and Escape brings it back to the list.
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role=menu]'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('file-view'))).toBe(true);
    expect(await selectedNames(page)).toEqual(['b.txt']);

    // The menu key on a folder: a folder's actions (a folder downloads as a zip).
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ContextMenu');
    await menu.waitFor();
    expect(await selectedNames(page)).toEqual(['Box']);
    expect(await labels(menu)).toEqual(['Open', 'Details', 'Download as zip', 'Move to…', 'Copy to…', 'Rename', 'Delete']);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('file-view'))).toBe(true);
  });

  it('keeps the time of a tile on one line and the drop hint clear of the empty folder icon, on a desktop and a phone', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const phone = viewport.width < 768;
      const { page } = await e2e.newPage({ viewport, isMobile: phone, hasTouch: phone });
      await signUpInBrowser(page);
      const uid = await sessionUserId(page);
      const icon = page.getByRole('status').filter({ hasText: 'This folder is empty' }).locator('svg').first();
      await icon.waitFor();
      // Files dragged in from the desktop.
      const files = await page.evaluateHandle(() => {
        const data = new DataTransfer();
        data.items.add(new File(['x'], 'x.txt'));
        return data;
      });
      await page.dispatchEvent('.page', 'dragover', { dataTransfer: files });
      const hint = page.getByText('Drop files to upload them here');
      await hint.waitFor();
      expect(overlap((await hint.boundingBox())!, (await icon.boundingBox())!), `${viewport.width}px`).toBe(false);
      await page.dispatchEvent('.page', 'dragleave', { dataTransfer: files });

      // A folder's tile shows when it changed on one line, the height of a line of its text.
      await createFolder(e2e.haul.ctx, uid, '', 'Letters and other papers');
      await page.reload();
      await gridView(page);
      const sub = page.getByRole('gridcell', { name: 'Letters and other papers' }).locator('.fsub');
      await sub.waitFor();
      // Its text's line boxes: one, as tall as the element (a wrapped line would show as a second box, clipped or not).
      const lines = await sub.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const boxes = [...range.getClientRects()];
        const lineHeight = Math.max(...boxes.map((b) => b.height));
        const lines = new Set(boxes.map((b) => Math.round(b.top))).size;
        return { text: el.textContent, lines, height: el.getBoundingClientRect().height, lineHeight };
      });
      expect(lines.lines, `${viewport.width}px: ${JSON.stringify(lines)}`).toBe(1);
      expect(lines.height).toBeLessThan(lines.lineHeight * 1.5);
      expect(lines.text).toMatch(/\d{4}/);
      await page.screenshot({ path: `${process.env.HAUL_SCREENSHOT_DIR ?? '/tmp'}/haul-grid-${viewport.width}.png` });
    }
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
    const view = page.getByRole('grid');
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
    // The whole folder is listed (rows arriving from a sync show at most once a second) and sorted; the grid's rows
    // are its column titles and the files.
    await expect.poll(() => page.locator('.file-view').getAttribute('aria-rowcount')).toBe(String(names.length + 1));
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

    // The rows on screen are the last ones, each with its own name and its place after the titles' row, and a click
    // selects that file.
    const shown = await page
      .getByRole('row')
      .and(page.locator('[data-item]'))
      .evaluateAll((rows) =>
        rows.map((r) => [r.getAttribute('aria-label'), r.querySelector('.fname > span')?.textContent, r.getAttribute('aria-rowindex')]),
      );
    expect(
      shown.map(([label]) => label),
      JSON.stringify(shown),
    ).toContain('file-239.txt');
    for (const [label, text, rowIndex] of shown) {
      expect(text).toBe(label);
      expect(names[Number(rowIndex) - 2]).toBe(label);
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
