/**
 * A new user's first steps: the landing page a signed-out visitor meets, adding content first, a pasted link, failures that show, a dialog that keeps its input, and
 * a share that shows the link a file already has.
 */
import { createFolder } from '../apps/server/src/files/files.service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goneOrigin, addNew, listView, rowNames, sessionUserId, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let gone: Awaited<ReturnType<typeof goneOrigin>>;
beforeAll(async () => {
  e2e = await startE2E();
  gone = await goneOrigin();
}, 60_000);
afterAll(async () => {
  gone?.close();
  await e2e?.close();
});

describe('first use', () => {
  it('meets a signed-out visitor with what Haul does, in their language and at phone size, then opens sign-up', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const answer = await page.goto('/drive/');
    await page.waitForURL('**/drive/landing');
    await page.getByRole('heading', { name: 'Your own drive that fetches for you' }).waitFor();
    // Framable by the extension's pages only; any other page of the app refuses every framer.
    const landing = await page.request.get('/drive/landing');
    expect(landing.headers()['content-security-policy']).toContain('frame-ancestors \'self\' chrome-extension: moz-extension:');
    expect((await answer!.allHeaders())['x-frame-options']).toBe('DENY');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.getByRole('listitem').count()).toBe(4);

    await page.getByRole('link', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create your Haul account' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/drive/login');

    // Another language: the page is in it, the extension's link too.
    await page.evaluate(() => localStorage.setItem('haul.locale', 'ja'));
    await page.goto('/drive/landing');
    await page.getByRole('heading', { name: '代わりにダウンロードしてくれる、あなた専用のドライブ' }).waitFor();
    expect(await page.getByRole('link', { name: 'ブラウザー拡張機能を入手' }).getAttribute('href')).toBe('/drive/extension');
  });

  it('keeps the deep link of a signed-out visitor (login, not the landing page) and offers a signed-in one the drive', async () => {
    const { page } = await e2e.newPage();
    await page.goto('/drive/all?action=open_redeem_box');
    await page.waitForURL(/\/drive\/login\?/);
    await signUpInBrowser(page);
    await page.goto('/drive/landing');
    await page.getByRole('link', { name: 'Open your drive' }).click();
    await page.waitForURL('**/drive/all');
  });

  it('invites fetching and uploading first, in the empty drive and in "+ New"', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const empty = page.getByRole('status').filter({ hasText: 'This folder is empty' });
    await expect.poll(() => empty.textContent()).toContain('Paste a link');
    const buttons = await empty.getByRole('button').allTextContents();
    expect(buttons).toEqual(['Cloud download', 'Upload files']);
    expect(await empty.getByRole('button', { name: 'Cloud download' }).getAttribute('class')).toContain('primary');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Cloud download', 'Upload files', 'Upload folder', 'New folder']);
    await page.keyboard.press('Escape');
  });

  it('opens the cloud download dialog, filled, when a link is pasted into the file list', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await page.getByRole('status').waitFor();
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'https://example.com/a.iso\nmagnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567');
      document.querySelector('.page')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    const dialog = page.getByRole('dialog', { name: 'Cloud download' });
    await expect.poll(() => dialog.getByLabel('Links').inputValue()).toBe('https://example.com/a.iso\nmagnet:?xt=urn:btih:0123456789abcdef0123456789abcdef01234567');
    await page.keyboard.press('Escape');
    // Ordinary text is not taken for links.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'shopping list');
      document.querySelector('.page')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('counts and colours a failed cloud download, opens on its tab, and offers to remove it', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await addNew(page, 'Cloud download');
    await page.getByLabel('Links').fill(gone.url);
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const head = page.locator('.transfer-head');
    await expect.poll(() => head.textContent(), { timeout: 30_000 }).toContain('1 transfer failed');
    expect(await head.getAttribute('class')).toContain('has-failed');
    if ((await head.getAttribute('aria-expanded')) !== 'true') await head.click();
    expect(await page.getByRole('tab', { name: /^Cloud download/ }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Remove: gone.iso' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Remove: gone.iso' }).count()).toBe(0);
  });

  it('keeps a dialog and its input when the network is away, and creates the folder once it is back', async () => {
    const { page, context } = await e2e.newPage();
    await signUpInBrowser(page);
    await addNew(page, 'New folder');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Made offline');
    await context.setOffline(true);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByRole('button', { name: 'Create' }).isEnabled()).toBe(true);
    await context.setOffline(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(await dialog.count()).toBe(1);
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Made offline');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByText('Made offline').count()).toBeGreaterThan(0);
  });

  it('puts "+ New" in reach on a phone, floating over the list', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signUpInBrowser(page);
    const fab = page.getByRole('button', { name: 'New', exact: true });
    const style = await fab.evaluate((el) => ({ position: getComputedStyle(el).position, box: el.getBoundingClientRect().toJSON() }));
    expect(style.position).toBe('fixed');
    expect(style.box.right).toBeGreaterThan(390 - 40);
    expect(style.box.bottom).toBeGreaterThan(844 / 2);
    await fab.click();
    expect(await page.getByRole('menuitem').first().textContent()).toBe('Cloud download');
    await page.screenshot({ path: `${process.env.HAUL_SCREENSHOT_DIR ?? '/tmp'}/haul-phone-new.png` });
  });

  it('shows the link a file already has when it is shared again, and makes another only when asked', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await e2e.seedFile(await sessionUserId(page), '', 'plan.txt', 'the plan');
    await page.reload();
    await listView(page);
    const share = async () => {
      await page.getByRole('row', { name: 'plan.txt' }).click();
      await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Share', exact: true }).click();
    };
    await share();
    await page.getByRole('button', { name: 'Create link' }).click();
    const first = await page.getByLabel('Link', { exact: true }).inputValue();
    const code = await page.getByTestId('pass-code').textContent();
    await page.keyboard.press('Escape');

    await share();
    await expect.poll(() => page.getByLabel('Link', { exact: true }).inputValue()).toBe(first);
    expect(await page.getByTestId('pass-code').textContent()).toBe(code);
    await page.getByRole('button', { name: 'New link' }).click();
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.getByLabel('Link', { exact: true }).inputValue()).not.toBe(first);
  });

  it('on a phone, names the folder the person is in and keeps every selection action in reach', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const a = await createFolder(e2e.haul.ctx, uid, '', 'Archive of everything');
    const b = await createFolder(e2e.haul.ctx, uid, a.id, 'Family photographs');
    const c = await createFolder(e2e.haul.ctx, uid, b.id, 'Holidays 2024');
    await e2e.seedFile(uid, c.id, 'beach.txt', 'sand');
    await page.goto(`/drive/all/${c.id}`);
    const here = page.locator('h1[aria-current="page"]');
    await expect.poll(() => here.textContent()).toBe('Holidays 2024');
    await page.screenshot({ path: `${process.env.HAUL_SCREENSHOT_DIR ?? '/tmp'}/haul-phone-crumbs.png` });
    // Shown whole, not cut to "Hol…": the middle of the path collapses instead.
    expect(await here.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(await page.getByRole('link', { name: 'Family photographs' }).textContent()).toBe('…');

    await listView(page);
    await page.getByRole('row', { name: 'beach.txt' }).locator('[data-check]').tap();
    const bar = page.getByRole('toolbar', { name: 'Selection' });
    await expect.poll(() => bar.getByText('1 selected').isVisible()).toBe(true);
    // Every control of the bar is on screen; the rest are in "More actions".
    for (const box of await bar.locator('button').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
      expect(box.right).toBeLessThanOrEqual(390);
      expect(box.left).toBeGreaterThanOrEqual(0);
    }
    expect(await bar.getByText('1 selected').evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(30);
    await bar.getByRole('button', { name: 'More actions' }).tap();
    await page.screenshot({ path: `${process.env.HAUL_SCREENSHOT_DIR ?? '/tmp'}/haul-phone-selection.png` });
    const more = await page.getByRole('menuitem').allTextContents();
    expect(more).toEqual(expect.arrayContaining(['Move to…', 'Rename']));

  });

  it('searches as the person types, says where, and widens a search from Starred to all files', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const uid = await sessionUserId(page);
    const starred = await e2e.seedFile(uid, '', 'report starred.txt', 'a');
    await e2e.seedFile(uid, '', 'report plain.txt', 'b');
    await e2e.haul.ctx.db.updateTable('files').set({ star: 1 }).where('id', '=', starred.id).execute();
    await page.goto('/drive/star');
    await listView(page);
    // No Enter: the results come a moment after the typing stops.
    await page.getByRole('combobox', { name: 'Search your files' }).pressSequentially('report', { delay: 30 });
    await page.waitForURL(/\/drive\/star\?action=search&name=report/);
    await expect.poll(() => page.getByText('Searching in Starred').count()).toBe(1);
    await expect.poll(() => rowNames(page)).toEqual(['report starred.txt']);
    await page.getByRole('button', { name: 'Search all files' }).click();
    await page.waitForURL(/\/drive\/all\?action=search&name=report/);
    await expect.poll(() => page.getByText('Searching in All files').count()).toBe(1);
    await expect.poll(async () => (await rowNames(page)).sort()).toEqual(['report plain.txt', 'report starred.txt']);
  });
});
