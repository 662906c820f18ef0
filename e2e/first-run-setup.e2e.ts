/**
 * First-run setup in the browser, on an empty install with the sandbox provider: the first visit opens setup, the
 * operator's account is made, sign-up goes by invitation, a test message lands in the outbox, the starter catalogue
 * goes on sale (one price changed, one product left out), and an invited person buys premium with the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageApi, PASSWORD, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E({ config: { firstRunSetup: true, paySandbox: true } });
}, 60_000);
afterAll(() => e2e?.close());

describe('first-run setup', () => {
  it('takes the first visitor from an empty install to an operator, a catalogue and a sandbox purchase', async () => {
    const { page } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto('/drive/');
    await page.waitForURL('**/drive/setup');
    await page.getByRole('heading', { name: 'Set up Haul' }).waitFor();
    await page.getByLabel('Email').fill('not an address');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: "Create the operator's account" }).click();
    await page.getByText('Enter a valid email address.').waitFor();
    await page.getByLabel('Email').fill('operator@example.com');
    await page.getByRole('button', { name: "Create the operator's account" }).click();

    await page.getByRole('heading', { name: 'A few choices' }).waitFor();
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 392).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 12));
    expect(await page.evaluate(() => document.documentElement.scrollWidth), wide.join('\n')).toBeLessThanOrEqual(390);
    expect(await page.getByLabel('Site name').inputValue()).toBe('Haul');
    await page.getByLabel('Site name').fill('Club drive');
    await page.getByLabel('Who may create an account').selectOption('invite');
    await page.getByLabel('Storage of a new account (GB)').fill('5');
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'test message' }).textContent()).toContain('kept in the outbox');
    const outbox = await e2e.haul.ctx.db.selectFrom('mail_outbox').select('subject').where('to_address', '=', 'operator@example.com').execute();
    expect(outbox.map((m) => m.subject)).toContain('Haul: a test message');
    await page.getByLabel('Currency (ISO code, like EUR)').fill('EUR');
    await page.getByLabel('Price of Premium, monthly').fill('3.50');
    await page.getByRole('checkbox', { name: '50 GB more transfer' }).uncheck();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForURL('**/drive/all');
    await page.getByText('Haul is ready.').waitFor();

    expect(e2e.haul.ctx.config.registration).toBe('invite');
    expect(e2e.haul.ctx.config.siteName).toBe('Club drive');
    await expect.poll(() => page.title()).toBe('Club drive');
    expect(e2e.haul.ctx.config.defaultQuotaBytes).toBe(5 * 1024 ** 3);
    const products = await e2e.haul.ctx.db.selectFrom('products').select(['id', 'price_minor', 'currency']).orderBy('id').execute();
    expect(products).toEqual([
      { id: 'premium-month', price_minor: 350, currency: 'EUR' },
      { id: 'premium-year', price_minor: 4999, currency: 'EUR' },
      { id: 'storage-100gb', price_minor: 199, currency: 'EUR' },
    ]);

    // Setup is over: the address leads to sign-in, and a stranger cannot sign up without an invitation.
    const { page: stranger } = await e2e.newPage();
    await stranger.goto('/drive/setup');
    await stranger.waitForURL('**/drive/login');
    await stranger.goto('/drive/login?mode=signup');
    await stranger.getByRole('heading', { name: 'Create your Club drive account' }).waitFor();
    await stranger.getByLabel('Email').fill('stranger@example.com');
    await stranger.getByLabel('Password').fill(PASSWORD);
    await stranger.getByRole('button', { name: 'Create account' }).click();
    await stranger.getByText(/by invitation only/).waitFor();

    // The operator invites; the invited person signs up and buys premium with the sandbox, at the operator's price.
    const invite = ((await pageApi(page, 'POST', '/vip/v1/activity/invite', { from: 'web', tf: '', rf: '' })) as { link: string }).link;
    const { page: friend } = await e2e.newPage();
    await friend.goto(invite);
    await friend.getByLabel('Email').fill('friend@example.com');
    await friend.getByLabel('Password').fill(PASSWORD);
    await friend.getByRole('button', { name: 'Create account' }).click();
    await friend.waitForURL('**/drive/all');
    await friend.goto('/drive/payment');
    await friend.getByRole('button', { name: 'Buy Premium, monthly' }).click();
    await friend.waitForURL(/\/drive\/payment\/sandbox\//);
    await friend.locator('.sandbox-checkout .plan-price').filter({ hasText: '€3.50' }).waitFor();
    await friend.getByRole('button', { name: 'Pay (no money)' }).click();
    await expect.poll(() => friend.locator('.pay-state').getAttribute('data-state')).toBe('succeed');
  });
});
