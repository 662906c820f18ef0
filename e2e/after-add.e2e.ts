/**
 * After a cloud download is added (seed 000 §2): the person goes to Recent, where the new file is selected when it
 * lands, with the transfer list a toast's click away; with "Open when ready" (remembered) the file opens by itself.
 * What arrived from elsewhere since the last visit is counted in the sidebar and marked New on Recent, once.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addNew, sessionUserId, signUpInBrowser, startE2E, type E2E, pageApi } from './harness.js';

let e2e: E2E;
// A loopback origin that answers after a pause, so the file lands after the person has arrived on Recent.
const origin = createServer((req, res) => {
  setTimeout(() => {
    const body = Buffer.from(`Contents of ${req.url}\n`);
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length }).end(body);
  }, 1500);
});
let base = '';
beforeAll(async () => {
  e2e = await startE2E();
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
}, 60_000);
afterAll(async () => {
  origin.close();
  await e2e?.close();
});

const api = pageApi;

async function addLink(page: Page, link: string, opts: { folder?: string; openWhenReady?: boolean } = {}) {
  await addNew(page, 'Cloud download');
  const dialog = page.getByRole('dialog', { name: 'Cloud download' });
  await dialog.getByLabel('Links').fill(link);
  if (opts.folder) {
    await dialog.getByRole('button', { name: 'Change' }).click();
    await dialog.getByRole('option', { name: opts.folder }).click();
    await expect.poll(() => dialog.locator('.cloud-target strong').textContent()).toBe(opts.folder);
  }
  if (opts.openWhenReady !== undefined) await dialog.getByLabel('Open when ready').setChecked(opts.openWhenReady);
  await dialog.getByRole('button', { name: 'Download', exact: true }).click();
}

describe('after a cloud download is added', () => {
  it('goes to Recent and selects the new file when it lands; the transfer list is a click away', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await api(page, 'POST', '/drive/v1/files', { kind: 'drive#folder', name: 'Papers', parent_id: '' });
    await addLink(page, `${base}/papers/minutes.txt`, { folder: 'Papers', openWhenReady: false });
    await page.waitForURL('**/drive/recent');
    await page.getByText('1 cloud download added').waitFor();
    // The list stays folded: the new file is what shows.
    expect(await page.locator('.transfer-head').getAttribute('aria-expanded')).toBe('false');
    const row = page.getByRole('row', { name: 'minutes.txt' });
    await expect.poll(() => row.getAttribute('aria-selected'), { timeout: 20_000 }).toBe('true');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('opens the file in the viewer by itself with "Open when ready", and remembers the choice', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await addLink(page, `${base}/talk/slides.txt`, { openWhenReady: true });
    await page.getByRole('button', { name: 'Show transfers' }).click();
    expect(await page.locator('.transfer-head').getAttribute('aria-expanded')).toBe('true');
    const viewer = page.getByRole('dialog', { name: 'slides.txt' });
    await viewer.waitFor({ timeout: 20_000 });
    await expect.poll(() => viewer.textContent()).toContain('Contents of /talk/slides.txt');

    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await addNew(page, 'Cloud download');
    expect(await page.getByRole('dialog', { name: 'Cloud download' }).getByLabel('Open when ready').isChecked()).toBe(true);
  });

  it('counts what arrived since Recent was last looked at, from another device, and marks it New once', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    const userId = await sessionUserId(page);
    const nav = page.getByRole('navigation').getByRole('link', { name: /^Recent/ });
    await nav.waitFor();
    // The first look sets the mark: nothing of the account's own past counts as new.
    await e2e.seedFile(userId, '', 'before.txt', 'seen already');
    await page.goto('/drive/recent');
    await page.getByRole('row', { name: 'before.txt' }).waitFor();
    expect(await page.locator('.new-badge').count()).toBe(0);
    await page.goto('/drive/all');
    // Two files from another device: the sidebar counts them at its next look.
    await new Promise((r) => setTimeout(r, 20));
    await e2e.seedFile(userId, '', 'from-phone-1.txt', 'one');
    await e2e.seedFile(userId, '', 'from-phone-2.txt', 'two');
    await page.reload();
    await expect.poll(() => nav.getByLabel('2 new events').count()).toBe(1);
    // Recent marks them New and the sidebar's count goes; a second visit marks nothing.
    await nav.click();
    await page.getByRole('row', { name: 'from-phone-1.txt' }).getByText('New', { exact: true }).waitFor();
    await page.getByRole('row', { name: 'from-phone-2.txt' }).getByText('New', { exact: true }).waitFor();
    expect(await page.getByRole('row', { name: 'before.txt' }).getByText('New', { exact: true }).count()).toBe(0);
    await expect.poll(() => nav.locator('.nav-badge').count()).toBe(0);
    await page.reload();
    await page.getByRole('row', { name: 'from-phone-1.txt' }).waitFor();
    expect(await page.locator('.new-badge').count()).toBe(0);
  });
});
