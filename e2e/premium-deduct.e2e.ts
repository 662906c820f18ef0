/**
 * Premium taken back, in the browser: an operator refunds a person's order; the drive's sidebar shows a notice that
 * leads to /notices/premium-deduct (how many days, why, what is left), reading it puts the notice away, and a
 * signed-out visitor of that page reads the general words and a way to sign in. The premium-transform deep link opens
 * its dialog: 640 by 640 with radius 16 on a laptop, the whole screen with square corners on a phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { type E2E, newEmail, PASSWORD, signInBrowser, startE2E } from './harness.js';

const WIDE = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 800 } };

let e2e: E2E;
let operatorToken: string;
const api = async (method: string, url: string, token?: string, body?: unknown) => {
  const res = await e2e.haul.app.inject({ method: method as 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body ? { payload: body as object } : {}) });
  return res.json();
};
const signIn = async (email: string) => (await api('POST', '/v1/auth/signin', undefined, { username: email, password: PASSWORD })).access_token as string;

beforeAll(async () => {
  e2e = await startE2E({ config: { paySandbox: true } });
  const operator = newEmail();
  await createUser(e2e.haul.ctx, { email: operator, password: PASSWORD, isAdmin: true });
  operatorToken = await signIn(operator);
  await api('POST', '/admin/v1/products', operatorToken, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: '' });
}, 60_000);
afterAll(() => e2e?.close());

describe('premium-deduct notice', () => {
  it('after a refund the sidebar notice leads to the page that tells what was taken back; reading it puts the notice away', async () => {
    const email = newEmail();
    await createUser(e2e.haul.ctx, { email, password: PASSWORD });
    const token = await signIn(email);
    // Two months bought; the second is refunded: 30 days go, 30 stay.
    const orders: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = (await api('POST', '/vip/v1/pay/order/sandbox', token, { product_id: 'premium-month' })).order_id as string;
      expect(await api('POST', `/vip/v1/pay/sandbox/${id}`, token, { outcome: 'pay' })).toEqual({ status: 'succeed' });
      orders.push(id);
    }
    expect((await api('POST', `/admin/v1/orders/${orders[1]}/refund`, operatorToken)).status).toBe('refunded');

    const { page } = await e2e.newPage(WIDE);
    await signInBrowser(page, email);
    const notice = page.getByRole('link', { name: 'Premium time was taken back: see why' });
    await notice.click();
    await page.waitForURL('**/drive/notices/premium-deduct');
    const item = page.getByRole('list', { name: 'Premium time taken back' }).getByRole('listitem');
    await expect.poll(() => item.textContent()).toMatch(/^30 days of premium taken backThe payment for “Premium, 1 month” was refunded on .+\.$/);
    await expect.poll(() => page.locator('[data-premium]').textContent()).toMatch(/^Premium until .+ \(30 days left\)$/);

    // Read: back in the drive, the notice is gone, and stays gone after a reload (kept on the account).
    await page.getByRole('link', { name: 'Back to your drive' }).click();
    await page.locator('.upgrade-entry').waitFor();
    await expect.poll(() => notice.count()).toBe(0);
    await page.reload();
    await page.locator('.upgrade-entry').waitFor();
    expect(await notice.count()).toBe(0);
  });

  it('the notice can be dismissed without opening the page', async () => {
    const email = newEmail();
    await createUser(e2e.haul.ctx, { email, password: PASSWORD });
    const token = await signIn(email);
    const id = (await api('POST', '/vip/v1/pay/order/sandbox', token, { product_id: 'premium-month' })).order_id as string;
    await api('POST', `/vip/v1/pay/sandbox/${id}`, token, { outcome: 'pay' });
    await api('POST', `/admin/v1/orders/${id}/refund`, operatorToken);
    const { page } = await e2e.newPage(WIDE);
    await signInBrowser(page, email);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Premium time was taken back: see why' }).count()).toBe(0);
    await expect
      .poll(async () => (await api('GET', '/v1/user/settings?items=premium_deduct_seen', token)).settings.map((s: { item: string }) => s.item))
      .toEqual(['premium_deduct_seen']);
  });

  it('signed out, the page explains in general and offers to sign in and come back', async () => {
    const { page } = await e2e.newPage(WIDE);
    await page.goto('/drive/notices/premium-deduct');
    await page.getByRole('heading', { name: 'Premium time taken back' }).waitFor();
    expect(await page.getByText('When a payment is refunded, what it bought is taken back', { exact: false }).count()).toBe(1);
    const signInLink = page.getByRole('link', { name: 'Sign in' });
    expect(await signInLink.getAttribute('href')).toBe('/drive/login?redirect=%2Fnotices%2Fpremium-deduct');
  });
});

describe('premium-transform dialog', () => {
  const open = async (opts: typeof WIDE) => {
    const email = newEmail();
    await createUser(e2e.haul.ctx, { email, password: PASSWORD });
    const { page } = await e2e.newPage(opts);
    await signInBrowser(page, email);
    await page.goto('/drive/all?action=show_premium_transform_dialog');
    const dialog = page.getByRole('dialog', { name: 'Change your plan' });
    await dialog.waitFor();
    return { page, dialog };
  };

  it('on a laptop: 640 by 640, radius 16, the plan now, the offer and the way to pay', async () => {
    const { page, dialog } = await open(WIDE);
    expect(new URL(page.url()).searchParams.has('action')).toBe(false);
    const box = (await dialog.boundingBox())!;
    expect([Math.round(box.width), Math.round(box.height)]).toEqual([640, 640]);
    expect(await dialog.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('16px');
    await expect.poll(() => dialog.locator('.transform-now').textContent()).toBe('Free plan.');
    await expect.poll(() => dialog.locator('.transform-offer').textContent()).toContain('Premium, 1 month');
    await dialog.getByRole('link', { name: 'Upgrade' }).click();
    await page.waitForURL('**/drive/payment');
    expect(await page.getByRole('dialog', { name: 'Change your plan' }).count()).toBe(0);
  });

  it('on a phone: the whole screen, square corners', async () => {
    const { dialog } = await open(PHONE);
    const box = (await dialog.boundingBox())!;
    expect([Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)]).toEqual([0, 0, 390, 800]);
    expect(await dialog.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('0px');
  });
});
