/**
 * The premium tab compares free and premium with the numbers this server is set up with, listing only what premium
 * changes; a checkout the person leaves expires after 30 minutes, the status page says so instead of waiting on, and
 * its button starts a new checkout of the same product (the sandbox provider).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_EXPIRES_AFTER_MS } from '../apps/server/src/payments/orders.service.js';
import { saveProduct } from '../apps/server/src/plans/catalog.js';
import { type E2E, signUpInBrowser, startE2E } from './harness.js';

const GiB = 1024 ** 3;
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({
    config: {
      paySandbox: true,
      dailyTaskLimit: 5,
      premiumDailyTaskLimit: 50,
      offlineMaxTaskBytes: 2 * GiB,
      monthlyCloudDownloadBytes: 10 * GiB,
      monthlyUploadBytes: 0,
      monthlyDownloadBytes: 0,
      dailyDownloadBytes: 0,
      freeMaxResolution: 720,
      decompressPremiumOnly: true,
      webdavPremiumOnly: false,
    },
  });
  await saveProduct(e2e.haul.ctx.db, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: '' }, Date.now());
}, 60_000);
afterAll(() => e2e?.close());

describe('plan offers', () => {
  it("compares free and premium with the server's own limits, only where premium changes them", async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await page.goto('/drive/payment');
    const table = page.getByRole('table', { name: 'Free and premium on this server' });
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    expect(rows).toEqual([
      ['Cloud downloads', '5 a day', '50 a day'],
      ['Largest cloud download', '2 GB', 'No limit'],
      ['Cloud download transfer', '10 GB a month', 'No limit'],
      ['Video quality', 'Up to 720p', 'Every quality'],
      ['Unpack archives in the cloud', 'No', 'Yes'],
    ]);
    // Uploads, downloads and WebDAV are the same for both here: nothing is promised about them.
    expect(await table.textContent()).not.toMatch(/Uploads|Downloads|WebDAV/);
    // The other tabs sell storage and transfer packs, which premium's limits do not describe.
    await page.locator('.plan-tabs').getByRole('link', { name: 'Storage' }).click();
    await page.waitForURL('**/drive/payment/storage');
    // The address changes before the storage page replaces the premium one.
    await expect.poll(() => page.getByRole('table').count()).toBe(0);
  });

  it('expires a checkout the person left, says so, and starts a new one of the same product', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await page.goto('/drive/payment');
    await page.getByRole('button', { name: 'Buy Premium, 1 month' }).click();
    await page.waitForURL(/\/drive\/payment\/sandbox\//);
    const first = new URL(page.url()).pathname.split('/').pop()!;
    // Left without a decision: the status page (as a tab beside another site's checkout shows it) waits.
    await page.goto(`/drive/payment/status/${first}`);
    await expect.poll(() => page.locator('.pay-state').getAttribute('data-state')).toBe('pending');

    // Half an hour passes.
    await e2e.haul.ctx.db
      .updateTable('orders')
      .set((eb) => ({ created_at: eb('created_at', '-', ORDER_EXPIRES_AFTER_MS + 1000) }))
      .where('id', '=', first)
      .execute();
    await expect.poll(() => page.locator('.pay-state').getAttribute('data-state'), { timeout: 10_000 }).toBe('expired');
    expect(await page.locator('.pay-state').textContent()).toBe('This checkout expired: it was not paid within 30 minutes. Nothing was charged.');

    await page.getByRole('button', { name: 'Start a new checkout' }).click();
    await page.waitForURL(/\/drive\/payment\/sandbox\//);
    const second = new URL(page.url()).pathname.split('/').pop()!;
    expect(second).not.toBe(first);
    await page.locator('.sandbox-checkout').getByText('Premium, 1 month').waitFor();
    await page.getByRole('button', { name: 'Pay (no money)' }).click();
    await expect.poll(() => page.locator('.pay-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('succeed');

    await page.goto('/drive/payment/management');
    await expect.poll(() => page.locator('.plan-orders tbody tr td:last-child').allTextContents()).toEqual([
      'Payment received. Thank you!',
      'This checkout expired: it was not paid within 30 minutes. Nothing was charged.',
    ]);
  });
});
