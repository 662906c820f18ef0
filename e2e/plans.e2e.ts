/**
 * Plans in the browser, with the sandbox provider: a free account hits the storage limit on an upload, the dialog
 * leads to the payment page, the sandbox checkout pays, and the upload completes by itself; a redeem code from the
 * account menu or a link; the sidebar's upgrade entry; a subscription (one per kind) canceled from payment management; the
 * way back to a share page.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProduct } from '../apps/server/src/plans/catalog.js';
import { createCodes } from '../apps/server/src/plans/redeem-codes.js';
import { type E2E, fromAccountMenu, listView, signUpInBrowser, startE2E, uploadStatus } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ config: { paySandbox: true, defaultQuotaBytes: 200_000 } });
  const now = Date.now();
  await saveProduct(e2e.haul.ctx.db, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d,storage:1GB/30d', price: '4.99', currency: 'EUR', interval: '' }, now);
  await saveProduct(e2e.haul.ctx.db, { id: 'premium-monthly', title: 'Premium, monthly', grant: 'premium:30d', price: '3.99', currency: 'EUR', interval: 'month', position: 1 }, now);
  await saveProduct(e2e.haul.ctx.db, { id: 'space-10', title: '10 GB for good', grant: 'storage:10GB', price: '9.00', currency: 'EUR', interval: '' }, now);
}, 60_000);
afterAll(() => e2e?.close());

describe('plans', () => {
  it('pays for more room from the storage limit dialog with the sandbox, and the upload completes by itself', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await listView(page);
    await page.getByTestId('upload-files').setInputFiles([{ name: 'first.bin', mimeType: 'application/octet-stream', buffer: randomBytes(150_000) }]);
    await expect.poll(() => uploadStatus(page, 'first.bin'), { timeout: 20_000 }).toBe('UPLOAD_TASK_COMPLETE');
    await page.getByTestId('upload-files').setInputFiles([{ name: 'second.bin', mimeType: 'application/octet-stream', buffer: randomBytes(100_000) }]);

    const dialog = page.getByRole('dialog').filter({ has: page.getByRole('link', { name: 'Upgrade' }) });
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.getByRole('link', { name: 'Upgrade' }).click();
    await page.waitForURL(/\/drive\/payment\?.*task_id=/);
    await page.getByText(/^Sandbox: no money moves\./).waitFor();
    const card = page.getByRole('listitem').filter({ hasText: 'Premium, 1 month' });
    expect(await card.textContent()).toContain('€4.99');
    expect(await card.textContent()).toContain('30 days of premium');
    await page.getByRole('button', { name: 'Buy Premium, 1 month' }).click();

    await page.waitForURL(/\/drive\/payment\/sandbox\//);
    await page.locator('.sandbox-checkout .plan-price').filter({ hasText: '€4.99' }).waitFor();
    await page.getByRole('button', { name: 'Pay (no money)' }).click();
    await page.waitForURL(/\/drive\/payment\/status\//);
    await expect.poll(() => page.locator('.pay-state').getAttribute('data-state'), { timeout: 15_000 }).toBe('succeed');
    expect(await page.getByText('What stopped at a limit goes on by itself now.').count()).toBe(1);
    await page.getByRole('link', { name: 'Continue' }).click();
    await expect.poll(() => uploadStatus(page, 'second.bin'), { timeout: 30_000 }).toBe('UPLOAD_TASK_COMPLETE');

    await fromAccountMenu(page, 'Plan and payments');
    await expect.poll(() => page.locator('.plan-now').textContent()).toMatch(/Premium until .* \(30 days left\)/);
    expect(await page.locator('.plan-now').textContent()).toContain('+1 GB storage');
    // The orders come in a query of their own, which may land after the plan's.
    await expect.poll(() => page.locator('.plan-orders tbody tr').allTextContents()).toEqual([expect.stringMatching(/Premium, 1 month.*€4\.99.*Payment received/)]);
  });

  it('redeems a code from the account menu and from a link, and says why a code is refused', async () => {
    const [code, other] = await createCodes(e2e.haul.ctx.db, { spec: 'premium:7d', count: 2 }, Date.now());
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await fromAccountMenu(page, 'Redeem a code');
    const box = page.getByRole('dialog', { name: 'Redeem a code' });
    await box.getByLabel('Code').fill('WRNG-WRNG-WRNG-WRNG');
    await box.getByRole('button', { name: 'Redeem' }).click();
    await expect.poll(() => box.textContent()).toContain('This code does not exist or has expired.');
    await box.getByLabel('Code').fill(code!.toLowerCase());
    await box.getByRole('button', { name: 'Redeem' }).click();
    await page.getByText('Redeemed: 7 days of premium.').waitFor();
    expect(await box.count()).toBe(0);

    await page.goto('/drive/all?action=open_redeem_box');
    await page.getByRole('dialog', { name: 'Redeem a code' }).getByLabel('Code').fill(other!);
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page.getByText('Redeemed: 7 days of premium.').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.goto('/drive/payment/management');
    await expect.poll(() => page.locator('.plan-now').textContent()).toMatch(/\(14 days left\)/);
  });

  it('subscribes with the sandbox and cancels the renewal from payment management', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    // The sidebar offers premium at the operator's first premium price.
    const entry = page.locator('.upgrade-entry');
    await expect.poll(() => entry.textContent()).toBe('Get Premiumfrom €4.99');
    await entry.click();
    await page.waitForURL(/\/drive\/payment$/);
    await page.getByRole('button', { name: 'Buy Premium, monthly' }).click();
    await page.waitForURL(/\/drive\/payment\/sandbox\//);
    await page.getByRole('button', { name: 'Decline the card' }).click();
    await expect.poll(() => page.locator('.pay-state').getAttribute('data-state')).toBe('failed');
    await page.getByRole('link', { name: 'Choose a plan again' }).click();
    await page.getByRole('button', { name: 'Buy Premium, monthly' }).click();
    await page.getByRole('button', { name: 'Pay (no money)' }).click();
    await expect.poll(() => page.locator('.pay-state').getAttribute('data-state')).toBe('succeed');

    await page.goto('/drive/payment');
    // One subscription renews premium: its card leads to managing it instead of a second one.
    const monthly = page.getByRole('listitem').filter({ hasText: 'Premium, monthly' });
    await monthly.getByRole('link', { name: 'Subscribed: manage' }).waitFor();
    expect(await monthly.getByRole('button').count()).toBe(0);
    await expect.poll(() => entry.textContent()).toBe('Premium · 30 days left');
    await page.getByRole('link', { name: 'Manage payments' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'Premium, monthly' });
    await expect.poll(() => row.textContent()).toMatch(/Renews on/);
    await page.getByRole('button', { name: 'Cancel the renewal of Premium, monthly' }).click();
    await page.getByRole('button', { name: 'Yes, cancel renewal' }).click();
    await expect.poll(() => row.textContent()).toMatch(/Canceled: runs until/);
    const statuses = await page.locator('.plan-orders tbody tr td:last-child').allTextContents();
    expect(statuses.sort()).toEqual(['Payment received. Thank you!', 'The payment failed. Nothing was charged.']);
    await page.goto('/drive/payment');
    await page.getByRole('button', { name: 'Buy Premium, monthly' }).waitFor();
  });

  it('goes back to the share page it came from once paid', async () => {
    const { page } = await e2e.newPage();
    await signUpInBrowser(page);
    await page.goto('/drive/payment?refer_from=limit_view&return=%2Fs%2Fabc123%3Fpwd%3Dx');
    await page.getByRole('button', { name: 'Buy Premium, 1 month' }).click();
    await page.getByRole('button', { name: 'Pay (no money)' }).click();
    await expect.poll(() => page.locator('.pay-state').getAttribute('data-state')).toBe('succeed');
    // A page load outside the drive app, not a route inside it.
    expect(await page.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/s/abc123?pwd=x');
  });
});
