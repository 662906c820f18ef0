/**
 * Passkeys in the browser, with Chromium's virtual authenticator (DevTools WebAuthn domain) as the device: one is
 * added on the account page after the password, then signs in alone (no password, and no two-factor code although
 * two-factor sign-in is on); removed (password and code), it no longer signs in and the page says why. An account
 * without a password adds one with a mailed code instead, and signs in with it. The app is
 * opened at http://localhost:PORT, since browsers refuse an IP address as a passkey's site, and links follow the
 * address used (no pinned public URL), so the relying party is "localhost".
 */
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { newestOutbox } from '../apps/server/src/mail/outbox.js';
import { passwordlessHash } from '../apps/server/src/providers/passwordless.js';
import { codeIn } from '../apps/server/test/mail-inbox.js';
import { PASSWORD, fitsWidth, pageApi, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let base: string;
beforeAll(async () => {
  e2e = await startE2E({ pinPublicUrl: false });
  base = e2e.base.replace('127.0.0.1', 'localhost');
}, 60_000);
afterAll(() => e2e?.close());

/** A page at localhost whose tab has a platform authenticator that holds passkeys and verifies its user. */
async function pageWithAuthenticator(viewport = { width: 1366, height: 900 }): Promise<{ page: Page; context: BrowserContext; credentials: () => Promise<unknown[]>; presence: (on: boolean) => Promise<unknown> }> {
  const { page, context } = await e2e.newPage({ baseURL: base, viewport });
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  /** Off: the authenticator waits, as a person who has not touched anything yet; on: it answers every request at once. */
  const presence = (enabled: boolean) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled });
  return { page, context, credentials, presence };
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await page.waitForURL('**/drive/login**');
}

/** This 30-second period's code, or a later one than any used: each TOTP code works once. */
async function freshCode(app: TOTP, used: Set<number>): Promise<string> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000);
    for (const s of [step, step + 1]) {
      if ([...used].some((u) => u >= s)) continue;
      used.add(s);
      return app.generate({ timestamp: s * 30_000 + 15_000 });
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('passkeys', () => {
  it('registers on the account page, signs in alone past two-factor, and once removed no longer signs in', { timeout: 120_000 }, async () => {
    const { page, credentials, presence } = await pageWithAuthenticator();
    const email = `passkey${Date.now().toString(36)}@example.com`;
    await page.goto('/drive/login');
    // The sign-in field offers passkeys among its suggestions (conditional UI).
    expect(await page.getByLabel('Email or phone number').getAttribute('autocomplete')).toBe('username webauthn');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/drive/all');

    // Added from the account pages, after the password.
    await page.goto('/drive/account/passkeys');
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByLabel('Name').fill('Test laptop');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create passkey' }).click();
    await page.getByText('Passkey “Test laptop” added.').waitFor();
    const row = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(async () => (await row.first().textContent()) ?? '').toMatch(/Test laptop.*Added .*Never used/);
    const held = (await credentials()) as { isResidentCredential: boolean; rpId: string }[];
    expect(held).toEqual([expect.objectContaining({ isResidentCredential: true, rpId: 'localhost' })]);
    expect(await fitsWidth(page)).toBe(true);

    // Two-factor sign-in on (through the API, as its own test drives its page): the password now asks for a code.
    const sudo = await pageApi(page, 'POST', '/v1/user/sudo', { password: PASSWORD });
    const setup = await pageApi(page, 'POST', '/v1/user/2fa/setup', { sudo_token: sudo.sudo_token });
    const app = new TOTP({ secret: Secret.fromBase32(setup.secret), digits: 6, period: 30 });
    const used = new Set<number>();
    const on = await pageApi(page, 'POST', '/v1/user/2fa/enable', { sudo_token: sudo.sudo_token, code: await freshCode(app, used) });
    expect(on.recovery_codes).toHaveLength(10);

    // Signed out, the passkey alone signs in: no password, no code. First from the sign-in field's suggestion, which
    // the virtual authenticator picks as soon as it may (a person choosing it from the list).
    await signOut(page);
    await page.waitForURL('**/drive/all');
    expect(await page.getByRole('dialog', { name: 'Enter your code' }).count()).toBe(0);
    // Then with the button: the suggestion waits while nobody touches the authenticator.
    await presence(false);
    await signOut(page);
    await page.waitForTimeout(1000);
    expect(page.url()).toMatch(/\/drive\/login/);
    await presence(true);
    // Touching the authenticator again does not answer the suggestion by itself: the button's request does.
    await page.waitForTimeout(500);
    expect(page.url()).toMatch(/\/drive\/login/);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/drive/all');
    expect(await page.getByRole('dialog', { name: 'Enter your code' }).count()).toBe(0);
    await page.goto('/drive/account/security-log');
    await page.getByText('Signed in with a passkey').first().waitFor();

    // Removed (the password, then the authenticator app's code, since two-factor sign-in is on).
    await page.goto('/drive/account/passkeys');
    await expect.poll(async () => (await row.first().textContent()) ?? '').toMatch(/Last used/);
    await page.getByRole('button', { name: 'Remove Test laptop' }).click();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Remove passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enter your code' });
    await dialog.getByLabel('Code').fill(await freshCode(app, used));
    await dialog.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Passkey “Test laptop” removed.').waitFor();
    await page.getByText('No passkeys yet.').waitFor();

    // The device still offers it; the server refuses it, and the page says why (the button's request here).
    await presence(false);
    await signOut(page);
    await page.waitForTimeout(500);
    expect(await page.getByRole('alert').count()).toBe(0);
    await presence(true);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: "This passkey didn't work here: it may have been removed from your account." }).waitFor();
    expect(page.url()).toMatch(/\/drive\/login/);
    expect(await credentials()).toHaveLength(1);
  });

  it('is added with a mailed code by an account without a password (a sign-in provider\'s), and then signs it in', { timeout: 90_000 }, async () => {
    const { page, credentials } = await pageWithAuthenticator();
    const email = `nopass${Date.now().toString(36)}@example.com`;
    await createUser(e2e.haul.ctx, { email, password: PASSWORD });
    await page.goto('/drive/login');
    await page.getByLabel('Email or phone number').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/drive/all');
    // As a sign-in provider's account: no password of its own (the session stays).
    await e2e.haul.ctx.db.updateTable('users').set({ password_hash: await passwordlessHash() }).where('email', '=', email).execute();

    await page.goto('/drive/account/passkeys');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    expect(await page.getByLabel('Current password').count()).toBe(0);
    await page.getByRole('button', { name: `E-mail a code to ${email}` }).click();
    const mailed = async () => (await newestOutbox(e2e.haul.ctx.db, 20)).filter((m) => m.to === email).at(-1);
    await expect.poll(mailed).toBeTruthy();
    await page.getByLabel('Code from the e-mail').fill(codeIn((await mailed())!));
    await page.getByLabel('Name').fill('Provider laptop');
    await page.getByRole('button', { name: 'Create passkey' }).click();
    await page.getByText('Passkey “Provider laptop” added.').waitFor();
    expect(await credentials()).toHaveLength(1);

    // Signed out, the sign-in field's suggestion signs the account in with it (the authenticator answers at once).
    await signOut(page);
    await page.waitForURL('**/drive/all');
    expect((await pageApi(page, 'GET', '/v1/user/me')).email).toBe(email);
  });

  it('fits a phone: the list and its forms at 390 px', { timeout: 60_000 }, async () => {
    const { page } = await pageWithAuthenticator({ width: 390, height: 844 });
    await page.goto('/drive/login');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Email').fill(`phone${Date.now().toString(36)}@example.com`);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/drive/all');
    await page.goto('/drive/account/passkeys');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create passkey' }).click();
    // Unnamed, it is called after the browser it was made in.
    await page.getByText(/Passkey “.*Chrom.*” added\./).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: /^Remove / }).click();
    await page.getByRole('button', { name: 'Remove passkey' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
  });

  it('offers no passkeys at an IP address, which browsers refuse as a passkey site, and says nothing unasked', { timeout: 60_000 }, async () => {
    const { page } = await e2e.newPage();
    await page.goto(`${e2e.base}/drive/login`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
