/**
 * Two-factor sign-in in the browser: turned on from the account page (password, QR code, a first code from the app,
 * recovery codes kept), then the sign-in page asks for the app's code after the password, a wrong code is said in the
 * dialog, and a recovery code works once. The test plays the authenticator app with otpauth, reading the secret the
 * page shows for typing by hand.
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUpInBrowser, startE2E, type E2E } from './harness.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
}, 60_000);
afterAll(() => e2e?.close());

/**
 * A code the server has not taken yet: this period's, else the next period's (the server allows one step of clock
 * drift), else wait for the next period. A code works once, so each use must be of a later step than the last.
 */
async function freshCode(app: TOTP, used: Set<number>): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000);
    for (const s of [step, step + 1]) {
      if (used.has(s) || [...used].some((u) => u > s)) continue;
      used.add(s);
      return app.generate({ timestamp: s * 30_000 + 15_000 });
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function signInWithPassword(page: Page, email: string): Promise<void> {
  await page.goto('/drive/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('two-factor sign-in', () => {
  it('is turned on from the account page and then asked for at sign-in; a recovery code works once', { timeout: 120_000 }, async () => {
    const { page, context } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const email = await signUpInBrowser(page);
    await page.goto('/drive/account/two-factor');
    await page.getByRole('button', { name: 'Set up' }).click();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.locator('.secret-key').textContent())!.replace(/\s/g, '');
    const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    const used = new Set<number>();

    await page.getByLabel('6-digit code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('The code is incorrect').waitFor();
    await page.getByLabel('6-digit code from the app').fill(await freshCode(app, used));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const recovery = (await codes.first().textContent())!.trim();
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(recovery);
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByRole('status').filter({ hasText: 'Two-factor sign-in is on. 10 recovery codes left.' }).waitFor();

    // A new browser: the password alone is not enough.
    const { page: other } = await e2e.newPage();
    await signInWithPassword(other, email);
    const dialog = other.getByRole('dialog', { name: 'Enter your code' });
    await dialog.getByLabel('Code').fill('123456');
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await dialog.getByText('The code is incorrect').waitFor();
    await dialog.getByLabel('Code').fill(await freshCode(app, used));
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await other.waitForURL('**/drive/all');

    // A third with a recovery code; that code then no longer works.
    const { page: third } = await e2e.newPage();
    await signInWithPassword(third, email);
    await third.getByRole('dialog', { name: 'Enter your code' }).getByLabel('Code').fill(recovery);
    await third.getByRole('button', { name: 'Verify' }).click();
    await third.waitForURL('**/drive/all');
    const { page: fourth } = await e2e.newPage();
    await signInWithPassword(fourth, email);
    const again = fourth.getByRole('dialog', { name: 'Enter your code' });
    await again.getByLabel('Code').fill(recovery);
    await again.getByRole('button', { name: 'Verify' }).click();
    await again.getByText('The code is incorrect or was used already.').waitFor();
    // Cancelling leaves the person on the sign-in page, signed out.
    await again.getByRole('button', { name: 'Cancel' }).click();
    expect(fourth.url()).toMatch(/\/drive\/login/);

    // A sensitive change asks for the code too: turning it off.
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn off' }).click();
    const sudo = page.getByRole('dialog', { name: 'Enter your code' });
    await sudo.getByLabel('Code').fill(await freshCode(app, used));
    await sudo.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Two-factor sign-in is off').first().waitFor();
    await page.getByRole('button', { name: 'Set up' }).waitFor();
  });
});
