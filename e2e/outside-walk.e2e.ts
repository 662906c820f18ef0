/**
 * A new user's first walk through the app: saving picked items from a share across sign-up and sign-in, the
 * selection bar at tablet widths, the phone drawer after a transfer, long presses on a phone, and the selection
 * bar's "+ New" and Open / Play.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createFolder } from '../apps/server/src/files/files.service.js';
import { type E2E, listView, newEmail, PASSWORD, rowNames, sessionUserId, shareAsOwner, signUpInBrowser, startE2E } from './harness.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
/** A click that gives up soon: what a covered or missing control fails on. */
const SOON = { timeout: 5_000 };

let e2e: E2E;
let shareId = '';
beforeAll(async () => {
  e2e = await startE2E();
  const { page: owner } = await e2e.newPage();
  await signUpInBrowser(owner);
  const ownerId = await sessionUserId(owner);
  const trip = await createFolder(e2e.haul.ctx, ownerId, '', 'Trip');
  for (const n of ['a.txt', 'b.txt', 'c.txt']) await e2e.seedFile(ownerId, trip.id, n, `${n} notes`);
  shareId = await shareAsOwner(owner, [trip.id]);
});
afterAll(async () => {
  await e2e?.close();
});

/** Opens the shared folder signed out, ticks `names` and asks to save them: the sign-in screen comes next. */
async function pickAndSave(page: Page, names: string[]) {
  await page.goto(`/s/${shareId}`);
  // A share of one folder opens at its contents.
  await expect.poll(() => page.locator('.public-name').allTextContents()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  for (const n of names) await page.getByRole('checkbox', { name: n }).check();
  const count = names.length;
  await page.getByRole('button', { name: `Save ${count} item${count === 1 ? '' : 's'} to my drive` }).click();
  await page.waitForURL('**/drive/login?**');
}

/** Saves into All files from the dialog, then lists what the drive holds there. */
async function saveAndList(page: Page, count: number): Promise<string[]> {
  await page.waitForURL(`**/s/${shareId}?**`);
  const dialog = page.getByRole('dialog', { name: `Save ${count} item${count === 1 ? '' : 's'} to my drive` });
  await dialog.getByRole('button', { name: 'Save to “All files”' }).click();
  await page.getByText(`Saved ${count} item${count === 1 ? '' : 's'} to “All files”`).waitFor();
  await page.goto('/drive/all');
  await listView(page);
  await expect.poll(() => rowNames(page)).toHaveLength(count);
  return (await rowNames(page)).sort();
}

/** The labels of the selection bar's buttons and of its "More" menu, which is opened and closed from the keyboard. */
async function barActions(page: Page): Promise<string[]> {
  const bar = page.getByRole('toolbar', { name: 'Selection' });
  const labels = await bar
    .locator('button')
    .evaluateAll((bs) =>
      bs
        .map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim() ?? '')
        .filter((l) => l !== 'Clear selection' && l !== 'More actions'),
    );
  const more = bar.getByRole('button', { name: 'More actions' });
  if (await more.count()) {
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    labels.push(...(await menu.getByRole('menuitem').allTextContents()));
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
  }
  return labels;
}

/** How far an element's content runs past its box, sideways (0 when it fits). */
const overflowX = (el: Locator) => el.evaluate((e) => e.scrollWidth - e.clientWidth);

/** A finger held on the element for a second: a touch pointer down, a wait past the long press, the pointer up. */
async function longPress(page: Page, el: Locator, at?: { x: number; y: number }) {
  const box = (await el.boundingBox())!;
  const point = at ?? { x: box.width / 2, y: box.height / 2 };
  const init = { pointerType: 'touch', isPrimary: true, pointerId: 7, button: 0, clientX: box.x + point.x, clientY: box.y + point.y };
  // The same element for both: once a menu opens, the rows leave the accessibility tree the locator searches.
  const target = await el.elementHandle();
  await target!.dispatchEvent('pointerdown', { ...init, buttons: 1 });
  await page.waitForTimeout(1_000);
  await target!.dispatchEvent('pointerup', { ...init, buttons: 0 });
}

describe('a new user walks the app', () => {
  it('saves exactly the ticked items of a shared folder after creating an account', async () => {
    const { page } = await e2e.newPage();
    await pickAndSave(page, ['a.txt', 'c.txt']);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Email').fill(newEmail());
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await saveAndList(page, 2)).toEqual(['a.txt', 'c.txt']);
  });

  it('saves exactly the ticked item of a shared folder after signing in', async () => {
    const email = newEmail();
    await signUpInBrowser((await e2e.newPage()).page, email);
    const { page } = await e2e.newPage();
    await pickAndSave(page, ['b.txt']);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect(await saveAndList(page, 1)).toEqual(['b.txt']);
  });

  it('keeps every selection action reachable at 800 and 1024 px, the rest in a keyboard-usable "More" menu', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    for (const n of ['plan.txt', 'list.txt']) await e2e.seedFile(uid, '', n, n);
    await page.reload();
    await listView(page);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['list.txt', 'plan.txt']);
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    for (const width of [800, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await page.getByRole('row', { name: 'plan.txt' }).click();
      await bar.waitFor();
      await expect.poll(() => overflowX(bar)).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `/tmp/outside-walk-bar-${width}.png` });
      const one = await barActions(page);
      for (const a of ['Share', 'Star', 'Details', 'Download', 'Move to…', 'Copy to…', 'Rename', 'Delete']) expect(one).toContain(a);
      // Nothing in the bar is cut off by its edge.
      const edge = (await bar.boundingBox())!;
      for (const b of await bar.locator('button').all()) {
        const r = (await b.boundingBox())!;
        expect(r.x + r.width).toBeLessThanOrEqual(edge.x + edge.width + 0.5);
      }

      await page.getByRole('row', { name: 'list.txt' }).click({ modifiers: ['Control'] });
      await expect.poll(() => bar.getByText('2 selected').count()).toBe(1);
      await expect.poll(() => overflowX(bar)).toBeLessThanOrEqual(0);
      const two = await barActions(page);
      for (const a of ['Share', 'Star', 'Move to…', 'Copy to…', 'Delete']) expect(two).toContain(a);
      await page.keyboard.press('Escape');
    }
    // A collapsed action runs from the keyboard: Rename through "More" at 800 px.
    await page.setViewportSize({ width: 800, height: 800 });
    await page.getByRole('row', { name: 'plan.txt' }).click();
    const more = bar.getByRole('button', { name: 'More actions' });
    expect(await more.getAttribute('aria-haspopup')).toBe('menu');
    await more.focus();
    await page.keyboard.press('Enter');
    const rename = page.getByRole('menuitem', { name: 'Rename' });
    await rename.waitFor();
    await rename.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByLabel('Name').waitFor();
  });

  it('keeps Theme and Language in the phone drawer reachable after a finished upload', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signUpInBrowser(page);
    await page.getByTestId('upload-files').setInputFiles([{ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await page.getByText('Transfers complete').waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Drive' });
    await page.waitForTimeout(400); // the drawer slides in
    await page.screenshot({ path: '/tmp/outside-walk-drawer-390.png' });
    await drawer.getByRole('button', { name: 'Theme' }).click(SOON);
    await page.getByRole('menuitemradio', { name: 'Dark' }).click(SOON);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await drawer.getByRole('button', { name: 'Language' }).click(SOON);
    await page.getByRole('menuitemradio', { name: 'Español' }).click(SOON);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('es');
    // The transfer list comes back once the drawer is closed.
    await page.locator('.scrim').click({ position: { x: 360, y: 300 } });
    await expect.poll(() => page.getByRole('complementary', { name: 'Transferencias' }).isVisible()).toBe(true);
  });

  it('opens a file’s actions on a long press of its row, and the folder’s menu on a long press of empty space (phone)', async () => {
    const { page } = await e2e.newPage(PHONE);
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await e2e.seedFile(uid, '', 'menu.txt', 'soup');
    await page.reload();
    await listView(page);
    const row = page.getByRole('row', { name: 'menu.txt' });
    await row.waitFor();
    await longPress(page, row);
    const menu = page.getByRole('menu', { name: 'File actions' });
    await menu.waitFor(SOON);
    await page.screenshot({ path: '/tmp/outside-walk-longpress-390.png' });
    const items = await menu.getByRole('menuitem').allTextContents();
    for (const a of ['Rename', 'Move to…', 'Copy to…', 'Delete']) expect(items).toContain(a);
    expect(items).not.toContain('Cloud download');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);

    // Below the rows: the folder's own menu.
    const grid = page.getByRole('grid');
    const box = (await grid.boundingBox())!;
    await longPress(page, grid, { x: box.width / 2, y: box.height - 40 });
    await menu.waitFor(SOON);
    const area = await menu.getByRole('menuitem').allTextContents();
    expect(area).toEqual(['Cloud download', 'Upload files', 'New folder']);
  });

  it('keeps "+ New" usable while something is selected, and offers Open or Play for one openable item', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    await createFolder(e2e.haul.ctx, uid, '', 'Songs');
    await e2e.seedFile(uid, '', 'tune.mp3', 'not really a song');
    await e2e.seedFile(uid, '', 'data.bin', 'bytes');
    await page.reload();
    await listView(page);
    const bar = page.getByRole('toolbar', { name: 'Selection' });

    await page.getByRole('row', { name: 'data.bin' }).click();
    await bar.waitFor();
    await page.getByRole('button', { name: 'New', exact: true }).click(SOON);
    await page.getByRole('menuitem', { name: 'New folder' }).waitFor();
    await page.keyboard.press('Escape');
    // Nothing to open a file that only downloads with.
    expect(await barActions(page)).not.toContain('Open');

    await page.getByRole('row', { name: 'tune.mp3' }).click();
    await bar.getByRole('button', { name: 'Play', exact: true }).click(SOON);
    await page.locator('.viewer').waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('row', { name: 'Songs' }).click();
    await bar.getByRole('button', { name: 'Open', exact: true }).click(SOON);
    await page.waitForURL(/\/drive\/all\/[\w-]+$/);
  });
});
