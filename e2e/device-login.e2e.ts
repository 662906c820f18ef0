/**
 * Device sign-in in the browser: a signed-out browser shows a QR code and a code, a second signed-in one opens the
 * address the QR code holds, sees which device asks, approves, and the first is in its drive. Then the signed-in
 * devices page names both sessions and signs the first out with the password; the first browser finds itself
 * signed out. A refused code offers a new one. Phone layout screenshots go to the test output.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUpInBrowser, startE2E, type E2E } from './harness.js';

const SHOTS = process.env.HAUL_SCREENSHOT_DIR ?? '/tmp';
let e2e: E2E;
beforeAll(async () => {
  // One-second polls keep the test short; the pace rules themselves are tested on the server.
  e2e = await startE2E({ config: { devicePollIntervalSeconds: 1 } });
}, 60_000);
afterAll(() => e2e?.close());

/** Opens the QR sign-in from the sign-in page and returns the code it shows. */
async function showCode(page: Page): Promise<string> {
  await page.goto('/drive/login');
  await page.getByRole('link', { name: 'Sign in with a QR code' }).click();
  await page.waitForURL('**/drive/login/qr');
  await page.getByRole('img', { name: 'QR code to approve this sign-in' }).waitFor();
  const code = (await page.locator('.device-code').textContent())!.trim();
  expect(code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  return code;
}

describe('device sign-in', () => {
  it('signs a browser in from a QR code approved on a signed-in one, then signs it out from the devices page', async () => {
    const { page: phone } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const email = await signUpInBrowser(phone);
    const { page: tv } = await e2e.newPage();
    const code = await showCode(tv);
    // What the QR code holds is the approval page with the code filled in.
    expect(await tv.getByText(`${e2e.base}/drive/qr-login`).count()).toBe(1);

    await phone.goto(`/drive/qr-login?code=${code}`);
    await phone.getByText('asks to sign in to your account').waitFor();
    expect(await phone.locator('.qr-ask').textContent()).toMatch(/^Chrome on Linux asks to sign in/);
    await phone.screenshot({ path: join(SHOTS, 'haul-qr-login-390.png'), fullPage: true });
    // Approving a device is a lasting way in: it takes the password, and a wrong one approves nothing.
    await phone.getByLabel('Current password').fill('not my password');
    await phone.getByRole('button', { name: 'Sign it in' }).click();
    await phone.getByText('The password is incorrect.').waitFor();
    await phone.getByLabel('Current password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Sign it in' }).click();
    await phone.getByRole('status').filter({ hasText: 'Chrome on Linux is signed in' }).waitFor();

    // The polling browser is signed in and lands in the drive.
    await tv.waitForURL('**/drive/all', { timeout: 20_000 });
    await tv.getByRole('button', { name: 'Account' }).waitFor();

    // The devices page lists both; signing the other one out asks for the password.
    await phone.goto('/drive/account/devices');
    const rows = phone.locator('.device-row');
    await expect.poll(() => rows.count()).toBe(2);
    const current = rows.filter({ hasText: 'This device' });
    expect(await current.count()).toBe(1);
    // The TV is listed under the phone that approved it.
    await current.getByText('Approved or made here: Chrome on Linux (device)').waitFor();
    await phone.screenshot({ path: join(SHOTS, 'haul-devices-390.png'), fullPage: true });
    await phone.getByRole('button', { name: 'Sign out Chrome on Linux' }).click();
    const dialog = phone.getByRole('dialog');
    await dialog.getByLabel('Current password').fill('not my password');
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await dialog.getByText(/incorrect/i).waitFor();
    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await phone.getByText('Chrome on Linux is signed out').waitFor();
    await expect.poll(() => rows.count()).toBe(1);

    // The other browser's session is over: its next load ends on the sign-in page.
    await tv.reload();
    await tv.waitForURL('**/drive/login**', { timeout: 20_000 });
    expect(email).toContain('@');
  });

  it('tells the waiting browser when the sign-in is refused, and gives it a new code', async () => {
    const { page: owner } = await e2e.newPage();
    await signUpInBrowser(owner);
    const { page: waiting } = await e2e.newPage();
    const code = await showCode(waiting);

    // Typed by hand, in lower case and without the dash.
    await owner.goto('/drive/qr-login');
    await owner.getByLabel('Code shown on the device').fill(code.toLowerCase().replace('-', ''));
    await owner.getByRole('button', { name: 'Continue' }).click();
    await owner.getByRole('button', { name: "Don't allow" }).click();
    await owner.getByRole('status').filter({ hasText: 'was not signed in' }).waitFor();

    await waiting.getByRole('alert').filter({ hasText: 'The sign-in was refused on the other device.' }).waitFor({ timeout: 20_000 });
    await waiting.getByRole('button', { name: 'Get a new code' }).click();
    await waiting.getByRole('img', { name: 'QR code to approve this sign-in' }).waitFor();
    expect((await waiting.locator('.device-code').textContent())!.trim()).not.toBe(code);

    // A mistyped code says so at the field.
    await owner.goto('/drive/qr-login?code=BBBB-BBBB');
    await owner.getByText('No device is waiting with this code').waitFor();
  });
});
