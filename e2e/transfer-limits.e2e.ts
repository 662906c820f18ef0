/**
 * Transfers that hit a limit or lose the network, in the browser: the limit dialog names the limit with its numbers
 * and advertises nothing premium does not give; a cloud download says why it failed (not the engine's raw words) and
 * that it is looking for peers; an upload that loses the network keeps its progress and goes on once back online.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addNew, freePort, listView, sessionUserId, signUpInBrowser, startE2E, uploadStatus, type E2E } from './harness.js';

/** An origin that says its size (2 MB) and then sends nothing. */
const origin: Server = createServer((_req, res) => {
  res.writeHead(200, { 'content-length': 2_000_000, 'content-type': 'application/octet-stream' });
  res.flushHeaders();
});
let base: string;
let e2e: E2E;
beforeAll(async () => {
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  e2e = await startE2E({ config: { stallTimeoutSeconds: 600, offlineMinRate: 1024, offlineConcurrency: 3 } });
});
afterAll(async () => {
  origin.close();
  await e2e?.close();
});

const setStorage = async (page: Page, bytes: number) =>
  e2e.haul.ctx.db.updateTable('users').set({ storage_limit: bytes }).where('id', '=', await sessionUserId(page)).execute();

const cloudRow = (page: Page, name: string) => page.getByRole('listitem', { name, exact: true });

async function addLink(page: Page, link: string, opts: { showTransfers?: boolean } = {}) {
  await addNew(page, 'Cloud download');
  await page.getByLabel('Links').fill(link);
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  // The transfer list is one click away after an add (the drive goes to the new file instead).
  if (opts.showTransfers ?? true) await page.getByRole('button', { name: 'Show transfers' }).click();
}

describe('limits of transfers', () => {
  it('opens the limit dialog, with the numbers, when a cloud download turns out larger than the free space', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await setStorage(page, 1_500_000);
    // The limit dialog opens over everything, the toast's button included.
    await addLink(page, `${base}/big.iso`, { showTransfers: false });
    const dialog = page.getByRole('dialog', { name: 'Not enough storage space' });
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.textContent()).toContain('This file is 1.9 MB; 1.4 MB of your 1.4 MB is free.');
    // Premium gives no storage: the dialog advertises no premium benefit.
    expect(await dialog.getByRole('region', { name: 'What premium adds' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The failed row in the transfer list (its bar, then the cloud tab) says what failed, without a progress bar.
    await page.locator('.transfer-head').click();
    await page.getByRole('tab', { name: /^Cloud download/ }).click();
    const row = cloudRow(page, 'big.iso');
    expect(await row.locator('.form-error').textContent()).toBe('This file is 1.9 MB; 1.4 MB of your 1.4 MB is free.');
    expect(await row.getByRole('progressbar').count()).toBe(0);
  });

  it('words an upload that does not fit for what it is, not as a full drive, and offers no benefit premium lacks', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await setStorage(page, 3_000_000);
    await e2e.seedFile(await sessionUserId(page), '', 'old.bin', randomBytes(500_000));
    await page.getByTestId('upload-files').setInputFiles([{ name: 'big.bin', mimeType: 'application/octet-stream', buffer: randomBytes(2_800_000) }]);
    const dialog = page.getByRole('dialog', { name: 'Not enough storage space' });
    await dialog.waitFor({ timeout: 20_000 });
    const text = await dialog.textContent();
    expect(text).toContain('This file is 2.7 MB; 2.4 MB of your 2.9 MB is free.');
    expect(text).not.toMatch(/storage is full|Unlimited uploads/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await uploadStatus(page, 'big.bin')).toBe('UPLOAD_TASK_FAILED');
    expect(await page.getByRole('listitem', { name: 'big.bin', exact: true }).getByRole('progressbar').count()).toBe(0);
  });
});

describe('why a cloud download waits or failed', () => {
  it('shows a magnet with no peers as looking for peers, with the rule by which it gives up', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await addLink(page, 'magnet:?xt=urn:btih:89abcdef0123456789abcdef0123456789abcdef&dn=lonely');
    const row = cloudRow(page, 'lonely');
    await expect.poll(() => row.locator('[data-status]').textContent(), { timeout: 15_000 }).toBe('Looking for peers');
    await expect.poll(() => row.textContent()).toMatch(/waiting \d+s/);
    expect(await row.getByTestId('stall-rule').textContent()).toContain('each try gives up after 10m 0s without data or below 1 KB/s (try 1 of 5)');
    await page.getByRole('button', { name: 'Cancel download: lonely' }).click();
    await expect.poll(() => row.count()).toBe(0);
  });

  it("says in words why a link failed, keeping the engine's own words in the details", async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await addLink(page, `http://127.0.0.1:${await freePort()}/refused.bin`);
    const row = cloudRow(page, 'refused.bin');
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status'), { timeout: 40_000 }).toBe('PHASE_TYPE_ERROR');
    expect(await row.locator('.form-error').textContent()).toBe("The link's server refused the connection.");
    expect(await row.locator('.form-error').textContent()).not.toMatch(/ECONNREFUSED/);
    expect(await row.locator('details').textContent()).toMatch(/Details.*ECONNREFUSED/);
  }, 60_000);
});

describe('an upload that loses the network', () => {
  it('keeps its progress, says it is offline, and goes on as soon as the browser is back online', async () => {
    const { page, context } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    const events: string[] = [];
    // The first bytes sent are held, so the network can go while the upload is under way.
    let sending!: () => void;
    const sent = new Promise<void>((r) => (sending = r));
    let online = true;
    await page.route(
      (url) => url.pathname.startsWith('/drive/v1/uploads/'),
      async (route) => {
        events.push(`${route.request().method()} ${online ? 'online' : 'offline'}`);
        if (route.request().method() === 'PATCH' && events.filter((e) => e.startsWith('PATCH')).length === 1) {
          sending();
          // Held until the network is gone: then it fails as a dropped connection does.
          while (online) await new Promise((r) => setTimeout(r, 50));
          return route.abort('internetdisconnected');
        }
        return route.continue();
      },
    );
    await page.getByTestId('upload-files').setInputFiles([{ name: 'trip.bin', mimeType: 'application/octet-stream', buffer: randomBytes(3_000_000) }]);
    await sent;
    const row = page.getByRole('listitem', { name: 'trip.bin', exact: true });
    const progress = async () => Number(await row.getByRole('progressbar').getAttribute('aria-valuenow'));
    const before = await progress();
    expect(before).toBeGreaterThan(0);

    online = false;
    await context.setOffline(true);
    await expect.poll(() => row.locator('[data-status]').textContent()).toBe('Offline — will continue when you are back online');
    events.push('offline shown');
    expect(await progress()).toBeGreaterThanOrEqual(before);

    events.push('back online');
    online = true;
    await context.setOffline(false);
    await expect.poll(() => uploadStatus(page, 'trip.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    // Nothing was sent while offline; the upload went on after the browser was back online, from where it was.
    const after = events.slice(events.indexOf('back online') + 1);
    expect(events.slice(0, events.indexOf('offline shown')).every((e) => e.endsWith('online'))).toBe(true);
    expect(after.some((e) => e.startsWith('PATCH online') || e.startsWith('HEAD online'))).toBe(true);
  });
});
