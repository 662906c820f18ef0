/**
 * New accounts' premium trial in the browser: the operator turns it on from the console's settings, a new sign-up's
 * sidebar says "Premium trial: N days left" and leads to the plans, the payment management page tells the trial (days
 * left, the day it ends, that premium bought adds to it), and an account from before gets nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { type E2E, PASSWORD, pageApi, signInBrowser, signUpInBrowser, startE2E } from './harness.js';

const OPERATOR = `trial-operator-${Date.now().toString(36)}@example.com`;
const WIDE = { viewport: { width: 1366, height: 900 } };

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
  await createUser(e2e.haul.ctx, { email: OPERATOR, password: PASSWORD, name: 'Olga', isAdmin: true });
}, 60_000);
afterAll(() => e2e?.close());

describe('premium trial', () => {
  it('set in the console, a new sign-up sees "Premium trial: N days left" leading to the plans', async () => {
    // Before the trial is on: a sign-up is offered premium, with no trial.
    const { page: before } = await e2e.newPage(WIDE);
    await signUpInBrowser(before);
    await expect.poll(() => before.locator('.upgrade-entry').textContent()).toContain('Get Premium');

    const { page: ops } = await e2e.newPage(WIDE);
    await signInBrowser(ops, OPERATOR);
    await ops.goto('/drive/admin/settings');
    const field = ops.getByLabel('Premium trial for new accounts, in days (0: none)');
    expect(await field.inputValue()).toBe('0');
    await field.fill('14');
    await ops.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => e2e.haul.ctx.config.trialDays).toBe(14);

    const { page } = await e2e.newPage(WIDE);
    await signUpInBrowser(page);
    const entry = page.getByRole('link', { name: /Premium trial: 14 days left/ });
    await entry.waitFor();
    expect(await entry.textContent()).toBe('Premium trial: 14 days leftKeep premium: see plans');
    await entry.click();
    await page.waitForURL(/\/drive\/payment$/);

    // The management page tells the same trial: what it is, the days left, the day it ends, and that buying adds to it.
    await page.goto('/drive/payment/management');
    const panel = page.getByRole('region', { name: 'Premium trial' });
    await panel.waitFor();
    const vip = await pageApi(page, 'GET', '/vip/v1/vip/info');
    const ends = vip.grants.find((g: { source: string }) => g.source === 'trial').ends_at as string;
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ends));
    expect(await panel.textContent()).toBe(
      'Premium trial' +
        'Your new account came with premium for free, so you can try everything Haul offers.' +
        `14 days left, until ${day}` +
        'Premium you buy now adds to the trial: its days start when the trial ends, so you lose none.',
    );

    // The account from before the change stays as it was.
    await before.reload();
    await expect.poll(() => before.locator('.upgrade-entry').textContent()).toContain('Get Premium');
    expect(await before.getByText(/Premium trial/).count()).toBe(0);
    await before.goto('/drive/payment/management');
    await before.getByRole('heading', { name: 'Subscriptions' }).waitFor();
    expect(await before.getByRole('region', { name: 'Premium trial' }).count()).toBe(0);
  });
});
