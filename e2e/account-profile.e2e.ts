/**
 * The profile and the phone number in the browser, with text messages through a real webhook receiver in this
 * process: binding a phone from /account/basic with the texted code, signing in with it (by password, or by a texted
 * code) and resetting the password with it, and editing the name and the avatar.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { codeIn } from '../apps/server/test/mail-inbox.js';
import { SmsInbox } from '../apps/server/test/sms-inbox.js';
import { PASSWORD, newEmail, startE2E, type E2E } from './harness.js';

let e2e: E2E;
const sms = new SmsInbox();
beforeAll(async () => {
  await sms.start();
  e2e = await startE2E({ config: { smsWebhookUrl: sms.url, smsWebhookSecret: 'bridge secret' } });
}, 60_000);
afterAll(async () => {
  await e2e?.close();
  await sms.stop();
});

async function signIn(page: Page, username: string, password = PASSWORD): Promise<void> {
  await page.goto('/drive/login');
  await page.getByLabel('Email or phone number').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/drive/all');
}

async function account(name = 'Ann'): Promise<{ email: string; id: string }> {
  const email = newEmail();
  const user = await createUser(e2e.haul.ctx, { email, password: PASSWORD, name });
  return { email, id: user.id };
}

describe('profile and phone number', () => {
  it('binds a phone number with the texted code, then signs in and resets the password with it', async () => {
    const { email } = await account();
    const { page, context } = await e2e.newPage();
    await signIn(page, email);
    // The account menu leads to the profile, the account area's first page.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Your account' }).click();
    await page.waitForURL('**/drive/account/basic');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await page.getByText('Not set').waitFor();
    await page.getByRole('link', { name: 'Add phone number' }).click();
    await page.waitForURL('**/drive/account/bind-phone');

    // A number without its country code is refused in the form, before anything is sent.
    await page.getByLabel('New phone number').fill('07911 123456');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('alert').filter({ hasText: 'with its country code' }).waitFor();
    expect(sms.received).toHaveLength(0);

    await page.getByLabel('New phone number').fill('+44 7911 123456');
    await page.getByRole('button', { name: 'Send code' }).click();
    const status = page.getByRole('status').filter({ hasText: 'by text message' });
    await expect.poll(() => status.textContent()).toBe('We sent a 6-digit code to +44 7911 123456 by text message. It works for 10 minutes.');
    const texted = await sms.nth('+447911123456', 1);
    await page.getByLabel('6-digit code').fill(codeIn({ text: texted.body }));
    await page.getByRole('button', { name: 'Add phone number' }).click();
    await page.getByText('Your phone number is now +44 7911 123456').waitFor();
    const nav = page.getByRole('navigation', { name: 'Account' });
    await nav.getByRole('link', { name: 'Profile' }).click();
    await page.getByText('+44 7911 123456', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Change phone number' }).waitFor();

    // The number signs in, and a forgotten password comes back by text message.
    await context.clearCookies();
    const { page: other } = await e2e.newPage();
    await signIn(other, '+44 7911 123456');
    const { page: forgot } = await e2e.newPage();
    await forgot.goto('/drive/login');
    await forgot.getByLabel('Email or phone number').fill('+447911123456');
    await forgot.getByRole('link', { name: 'Forgot password?' }).click();
    await forgot.waitForURL('**/drive/forget-password');
    await forgot.getByRole('button', { name: 'Send code' }).click();
    const reset = await sms.nth('+447911123456', 2);
    expect(reset.body).toContain('reset your password');
    await forgot.getByLabel('6-digit code').fill(codeIn({ text: reset.body }));
    await forgot.getByLabel('New password').fill('a brand new secret');
    await forgot.getByRole('button', { name: 'Set password and sign in' }).click();
    await forgot.waitForURL('**/drive/all');
    const { page: again } = await e2e.newPage();
    await signIn(again, '+44 7911 123456', 'a brand new secret');

    // Or no password at all: a sign-in code texted to the number.
    const { page: byText } = await e2e.newPage();
    await byText.goto('/drive/login');
    await byText.getByLabel('Email or phone number').fill('+44 7911 123456');
    await byText.getByRole('link', { name: 'Send me a sign-in code' }).click();
    await byText.waitForURL('**/drive/login/code');
    await byText.getByRole('button', { name: 'Send code' }).click();
    await byText.getByRole('status').filter({ hasText: 'If +44 7911 123456 can sign in here, a code is on its way.' }).waitFor();
    const signInText = await sms.nth('+447911123456', 3);
    expect(signInText.body).toContain('to sign in');
    await byText.getByLabel('6-digit code').fill(codeIn({ text: signInText.body }));
    await byText.getByRole('button', { name: 'Sign in', exact: true }).click();
    await byText.waitForURL('**/drive/all');

    // Where a password is asked, a code texted to the account's own number does instead.
    await byText.goto('/drive/account/password');
    await byText.getByRole('button', { name: 'Send me a code instead' }).click();
    await byText.getByRole('button', { name: 'Text a code to +44 7911 123456' }).click();
    await byText.getByRole('status').filter({ hasText: 'by text message' }).waitFor();
    const confirm = await sms.nth('+447911123456', 4);
    expect(confirm.body).toContain('to confirm it is you');
    await byText.getByLabel('Code from the text message').fill(codeIn({ text: confirm.body }));
    await byText.getByLabel('New password', { exact: true }).fill('changed by a texted code');
    await byText.getByLabel('New password again').fill('changed by a texted code');
    await byText.getByRole('button', { name: 'Change password' }).last().click();
    await byText.getByText('Password changed').first().waitFor();
  });

  it('edits the name inline and picks an avatar, shown in the account menu too', async () => {
    const { email, id } = await account('Grace');
    const { page } = await e2e.newPage();
    await signIn(page, email);
    await page.goto('/drive/account/basic');
    await page.getByRole('button', { name: 'Edit name' }).click();
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('   ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter a name.' }).waitFor();
    await name.fill('Grace Hopper');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Grace Hopper', { exact: true }).waitFor();
    const row = () => e2e.haul.ctx.db.selectFrom('users').select(['name', 'picture']).where('id', '=', id).executeTakeFirstOrThrow();
    expect((await row()).name).toBe('Grace Hopper');

    await page.getByRole('button', { name: 'Change avatar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose an avatar' });
    await dialog.getByRole('radio', { name: 'Avatar 5' }).click();
    expect(await dialog.getByRole('radio', { name: 'Avatar 5' }).getAttribute('aria-checked')).toBe('true');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await row()).picture).toBe('avatar:5');

    // The account button shows the picture, served from our own origin, after a reload too.
    await page.reload();
    const picture = page.getByRole('button', { name: 'Account' }).locator('img');
    await expect.poll(() => picture.getAttribute('src')).toBe('/drive/avatars/5.svg');
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });
});
