/**
 * Account security in the browser, with mail through a real SMTP server in this process: a forgotten password reset
 * from the sign-in page, a sign-up that asks for the mailed code, and a password change that signs the other devices
 * out while this one stays.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { codeIn } from '../apps/server/test/mail-inbox.js';
import { passwordlessHash } from '../apps/server/src/providers/passwordless.js';
import { PASSWORD, newEmail, startE2E, type E2E } from './harness.js';

const NEW_PASSWORD = 'a brand new secret';
/** A code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const focused = (l: Locator) => l.evaluate((el) => el === document.activeElement);

let e2e: E2E;
beforeAll(async () => {
  // Mail can leave, so sign-up asks for a verified address (HAUL_SIGNUP_VERIFICATION auto).
  e2e = await startE2E({ mail: true });
}, 60_000);
afterAll(() => e2e?.close());

const inbox = () => e2e.inbox!;

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/drive/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** An account made as an operator would, since sign-up here wants a code. */
async function account(): Promise<string> {
  const email = newEmail();
  await createUser(e2e.haul.ctx, { email, password: PASSWORD, name: 'Ann' });
  return email;
}

describe('account security', () => {
  it('resets a forgotten password from the sign-in page through the mailed code, and lands in the drive', async () => {
    const email = await account();
    const { page } = await e2e.newPage();
    await page.clock.install();
    await page.goto('/drive/login');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/drive/forget-password');
    expect(await page.getByLabel('Email or phone number').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Send code' }).click();

    // The same words whether or not an account has the address.
    const status = page.getByRole('status').filter({ hasText: email });
    await expect.poll(() => status.textContent()).toBe(`If an account uses ${email}, a code is on its way. It works for 10 minutes.`);
    const code = page.getByLabel('6-digit code');
    expect(await focused(code)).toBe(true);
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await inbox().nth(email, 1);

    // A new code waits out its cool-down, shown on the button.
    const resend = page.getByRole('button', { name: /^Send a new code/ });
    expect(await resend.isDisabled()).toBe(true);
    expect(await resend.textContent()).toMatch(/^Send a new code in \d+ s$/);
    await page.clock.fastForward(61_000);
    await expect.poll(() => resend.textContent()).toBe('Send a new code');
    await resend.click();
    await expect.poll(() => status.textContent()).toContain('a new code is on its way');
    const sent = codeIn(await inbox().nth(email, 2));
    expect(await resend.isDisabled()).toBe(true);

    // A wrong code: the server's words at the field, focus back on it, the new password kept. Enter submits.
    await code.fill(wrong(sent));
    const password = page.getByLabel('New password');
    await password.fill(NEW_PASSWORD);
    await password.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'The code is wrong. Please check it and try again.' }).waitFor();
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    expect(await focused(code)).toBe(true);
    expect(await password.inputValue()).toBe(NEW_PASSWORD);

    // The whole mail line pasted gives the code.
    await code.evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, `Your code: ${sent.slice(0, 3)} ${sent.slice(3)}`);
    await expect.poll(() => code.inputValue()).toBe(sent);

    // The network fails as the password is set: everything typed stays, and the next try needs no new code.
    await page.route('**/v1/auth/reset', (route) => route.abort());
    await code.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Could not reach the server' }).waitFor();
    expect([await code.inputValue(), await password.inputValue()]).toEqual([sent, NEW_PASSWORD]);
    await page.unroute('**/v1/auth/reset');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL('**/drive/all');
    await page.getByText('Your password is changed. You are signed in.').waitFor();

    // The old password no longer signs in; the new one does.
    const { page: other } = await e2e.newPage();
    await signIn(other, email, PASSWORD);
    await other.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
    await other.getByLabel('Password').fill(NEW_PASSWORD);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await other.waitForURL('**/drive/all');
  });

  it('asks for the mailed code before creating an account when the server wants verified addresses', async () => {
    const { page } = await e2e.newPage();
    const email = newEmail();
    await page.goto('/drive/login');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'Confirm your email' }).waitFor();
    const status = page.getByRole('status').filter({ hasText: email });
    await expect.poll(() => status.textContent()).toBe(`We sent a 6-digit code to ${email}. It works for 10 minutes.`);
    const code = page.getByLabel('6-digit code');
    expect(await focused(code)).toBe(true);
    const user = () => e2e.haul.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    expect(await user()).toBeUndefined();
    const sent = codeIn(await inbox().nth(email, 1));

    await code.fill(wrong(sent));
    await code.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'The code is wrong' }).waitFor();
    await code.fill(sent);
    await page.getByRole('button', { name: 'Confirm and create account' }).click();
    await page.waitForURL('**/drive/all');
    expect(await user()).toBeDefined();
  });

  it('changes the password from the account menu: the other sessions end, this one stays', async () => {
    const email = await account();
    const { page: laptop } = await e2e.newPage();
    await signIn(laptop, email, PASSWORD);
    await laptop.waitForURL('**/drive/all');
    const { page: phone } = await e2e.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(phone, email, PASSWORD);
    await phone.waitForURL('**/drive/all');

    await laptop.getByRole('button', { name: 'Account' }).click();
    await laptop.getByRole('menuitem', { name: 'Change password' }).click();
    await laptop.waitForURL('**/drive/account/password');
    // What the change does is said before it is made.
    await laptop.getByText('Changing your password signs you out on every other device and browser. You stay signed in here.').waitFor();

    const current = laptop.getByLabel('Current password');
    const next = laptop.getByLabel('New password', { exact: true });
    const again = laptop.getByLabel('New password again');
    const change = laptop.getByRole('button', { name: 'Change password' });
    await current.fill('not my password');
    await next.fill(NEW_PASSWORD);
    await again.fill(NEW_PASSWORD);
    await change.click();
    await laptop.getByRole('alert').filter({ hasText: 'The password is incorrect.' }).waitFor();
    expect(await focused(current)).toBe(true);
    expect([await next.inputValue(), await again.inputValue()]).toEqual([NEW_PASSWORD, NEW_PASSWORD]);

    await current.fill(PASSWORD);
    await again.fill(`${NEW_PASSWORD}!`);
    await change.click();
    await laptop.getByRole('alert').filter({ hasText: 'The new passwords do not match.' }).waitFor();
    expect(await focused(again)).toBe(true);
    await again.fill(NEW_PASSWORD);
    await again.press('Enter');
    await laptop.getByText('Password changed. Your other devices are signed out.').waitFor();
    expect(await current.inputValue()).toBe('');

    // This browser stays signed in; the phone's session has ended.
    await laptop.reload();
    await laptop.getByRole('heading', { name: 'Change password' }).waitFor();
    expect(laptop.url()).toMatch(/\/drive\/account\/password$/);
    await phone.reload();
    await phone.waitForURL('**/drive/login**');
    const signInWith = (password: string) =>
      laptop.evaluate(async (body) => {
        const res = await fetch('/v1/auth/signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return res.status;
      }, JSON.stringify({ username: email, password }));
    expect(await signInWith(PASSWORD)).toBe(400);
    expect(await signInWith(NEW_PASSWORD)).toBe(200);
  });
  it('changes the e-mail address with the password and a code mailed to the new one; the old one is told', async () => {
    const email = await account();
    const next = newEmail();
    const { page } = await e2e.newPage();
    await signIn(page, email, PASSWORD);
    await page.waitForURL('**/drive/all');
    await page.goto('/drive/account/bind-email');
    await page.getByText(`Your account's address is ${email}.`).waitFor();
    await page.getByLabel('New e-mail address').fill(next);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('alert').filter({ hasText: /incorrect/i }).waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('status').filter({ hasText: `We sent a 6-digit code to ${next}` }).waitFor();
    const code = codeIn(await inbox().nth(next, 1));
    await page.getByLabel('6-digit code').fill(wrong(code));
    await page.getByRole('button', { name: 'Change e-mail' }).last().click();
    await page.getByRole('alert').filter({ hasText: 'The code is wrong' }).waitFor();
    // A wrong code is spent on the server's count only: the right one still works.
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Change e-mail' }).last().click();
    await page.getByText(`Your account's address is ${next}.`).waitFor();
    const notice = await inbox().nth(email, 1);
    expect(notice.subject).toBe('Your Haul e-mail address was changed');
    expect(notice.text).toContain(next);
    const status = await page.evaluate(async (body) => (await fetch('/v1/auth/signin', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status, JSON.stringify({ username: next, password: PASSWORD }));
    expect(status).toBe(200);
  });

  it('takes a mailed code where a password is asked: an account without one changes its address, sets a password and deletes itself', async () => {
    const email = await account();
    const next = newEmail();
    const { page } = await e2e.newPage();
    await signIn(page, email, PASSWORD);
    await page.waitForURL('**/drive/all');
    // As a sign-in provider's account: no password of its own (the session stays).
    await e2e.haul.ctx.db.updateTable('users').set({ password_hash: await passwordlessHash() }).where('email', '=', email).execute();
    // The operator asks every account for a password: the drive says so, with the way to set one.
    await e2e.haul.ctx.db.insertInto('system_kv').values({ key: 'run_time_settings', value: JSON.stringify({ require_password: true }) }).execute();
    await page.reload();
    const request = page.getByRole('status').filter({ hasText: 'This server asks every account to have a password' });
    await request.waitFor();

    // A new address: no password field, only "E-mail a code"; a code is asked for before anything is sent.
    await page.goto('/drive/account/bind-email');
    await page.getByText('Your account has no password').waitFor();
    expect(await page.getByLabel('Current password').count()).toBe(0);
    await page.getByLabel('New e-mail address').fill(next);
    await page.getByRole('button', { name: 'Send code', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Send yourself a code first' }).waitFor();
    await page.getByRole('button', { name: `E-mail a code to ${email}` }).click();
    await page.getByRole('status').filter({ hasText: `A code is on its way to ${email}` }).waitFor();
    const own = codeIn(await inbox().nth(email, 1));
    await page.getByLabel('Code from the e-mail').fill(wrong(own));
    await page.getByRole('button', { name: 'Send code', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The code is wrong' }).waitFor();
    await page.getByLabel('Code from the e-mail').fill(own);
    await page.getByRole('button', { name: 'Send code', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `We sent a 6-digit code to ${next}` }).waitFor();
    await page.getByLabel('6-digit code').fill(codeIn(await inbox().nth(next, 1)));
    await page.getByRole('button', { name: 'Change e-mail' }).last().click();
    await page.getByText(`Your account's address is ${next}.`).waitFor();

    // A first password, confirmed by a code to the new address.
    await page.goto('/drive/account/password');
    await page.getByRole('button', { name: `E-mail a code to ${next}` }).click();
    const second = codeIn(await inbox().nth(next, 2));
    await page.getByLabel('Code from the e-mail').fill(second);
    await page.getByLabel('New password', { exact: true }).fill('a first password');
    await page.getByLabel('New password again').fill('a first password');
    await page.getByRole('button', { name: 'Change password' }).last().click();
    await page.getByText('Password changed').first().waitFor();
    await page.goto('/drive/all');
    await page.getByRole('button', { name: 'Account' }).waitFor();
    await expect.poll(() => request.count()).toBe(0);
    await e2e.haul.ctx.db.deleteFrom('system_kv').where('key', '=', 'run_time_settings').execute();

    // Now with a password, the code is still offered; the deletion's code is asked for DELETION, and it goes.
    await page.goto('/drive/account/destroy');
    await page.getByLabel('Current password').waitFor();
    await page.getByRole('button', { name: 'Send me a code instead' }).click();
    await page.getByRole('button', { name: `E-mail a code to ${next}` }).click();
    const third = codeIn(await inbox().nth(next, 3));
    const asked = await e2e.haul.ctx.db.selectFrom('verifications').select('usage').where('email', '=', next).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(asked.usage).toBe('DELETION');
    await page.getByLabel('Code from the e-mail').fill(third);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete account' }).last().click();
    await page.waitForURL('**/drive/login');
    const signin = await e2e.haul.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { username: next, password: 'a first password' } });
    expect(signin.statusCode).toBe(400);
  });

  it('signs in with a mailed code from the sign-in page; a new address becomes an account the same way', async () => {
    const email = await account();
    const { page } = await e2e.newPage();
    await page.goto('/drive/login');
    await page.getByLabel('Email or phone number').fill(email);
    await page.getByRole('link', { name: 'Send me a sign-in code' }).click();
    await page.waitForURL('**/drive/login/code');
    expect(await page.getByLabel('Email or phone number').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('status').filter({ hasText: `If ${email} can sign in here, a code is on its way.` }).waitFor();
    const code = codeIn(await inbox().nth(email, 1));
    await page.getByLabel('6-digit code').fill(wrong(code));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The code is wrong' }).waitFor();
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/drive/all');

    const fresh = newEmail();
    const { page: newcomer } = await e2e.newPage();
    await newcomer.goto('/drive/login/code');
    await newcomer.getByLabel('Email or phone number').fill(fresh);
    await newcomer.getByRole('button', { name: 'Send code' }).click();
    await newcomer.getByLabel('6-digit code').fill(codeIn(await inbox().nth(fresh, 1)));
    await newcomer.getByRole('button', { name: 'Sign in', exact: true }).click();
    await newcomer.waitForURL('**/drive/all');
    const made = await e2e.haul.ctx.db.selectFrom('users').select('email').where('email', '=', fresh).executeTakeFirst();
    expect(made?.email).toBe(fresh);
  });
});
