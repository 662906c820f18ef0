/**
 * Sign-in providers in the browser, against a real OpenID provider on loopback with its own sign-in form: "Continue
 * with" on the sign-in page lands in the drive; the account page connects a provider (after the password) and
 * disconnects it; a callback this tab did not start does nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import type { OidcProviderConfig } from '../apps/server/src/providers/provider-config.js';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/test/oidc-test-provider.js';
import { disabledUntilReleased, holdRequests, PASSWORD, newEmail, sessionUserId, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let idp: TestOidcProvider;
// Filled once both sides listen: the provider must know Haul's address, and Haul the provider's.
const providers: OidcProviderConfig[] = [];

beforeAll(async () => {
  e2e = await startE2E({ config: { oidcProviders: providers } });
  idp = await startOidcProvider({
    redirectUris: [`${e2e.base}/drive/login/callback`],
    accounts: {
      ada: { password: 'ada-at-the-idp', email: 'ada@idp.example', email_verified: true, name: 'Ada Lovelace' },
      bea: { password: 'bea-at-the-idp', email: 'bea@idp.example', email_verified: true, name: 'Bea' },
    },
  });
  providers.push({ id: 'testid', name: 'Test ID', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: ['openid', 'email', 'profile'] });
}, 60_000);
afterAll(async () => {
  await e2e?.close();
  await idp?.stop();
});

describe('sign-in providers', () => {
  it('signs in with the provider from the sign-in page and lands in the drive', async () => {
    const { page } = await e2e.newPage();
    let callback = '';
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.url().includes('/drive/login/callback')) callback = r.url();
    });
    await page.goto('/drive/login');
    await page.getByRole('button', { name: 'Continue with Test ID' }).click();
    await page.waitForURL(`${idp.issuer}/**`);
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel('Password').fill('ada-at-the-idp');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/drive/all');
    const user = await e2e.haul.ctx.db.selectFrom('users').selectAll().where('id', '=', await sessionUserId(page)).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ email: 'ada@idp.example', name: 'Ada Lovelace' });
    // The round trip is spent: the same callback again does nothing.
    expect(callback).toContain('code=');
    await page.goto(callback);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not started in this browser tab/);
  });

  it('connects a provider from the account page after the password, and disconnects it', async () => {
    const email = newEmail();
    await createUser(e2e.haul.ctx, { email, password: PASSWORD, name: 'Cy' });
    const { page } = await e2e.newPage();
    await page.goto('/drive/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/drive/all');

    // The account's connections come late (a slow network): until they are known, whether the password comes first is
    // not, so Connect waits for them instead of going to the provider without it.
    const release = await holdRequests(page, '/v1/user/provider');
    await page.goto('/drive/account/providers');
    await page.getByRole('link', { name: 'Sign-in providers' }).waitFor();
    const connect = page.getByRole('button', { name: 'Connect Test ID' });
    await disabledUntilReleased(connect, release);
    await connect.click();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue to Test ID' }).click();
    await page.waitForURL(`${idp.issuer}/**`);
    await page.getByLabel('Username').fill('bea');
    await page.getByLabel('Password').fill('bea-at-the-idp');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/drive/account/providers');
    await expect.poll(() => page.getByText('Connected as bea@idp.example').count()).toBe(1);
    const userId = await sessionUserId(page);
    expect(await e2e.haul.ctx.db.selectFrom('provider_links').select('subject').where('user_id', '=', userId).execute()).toEqual([{ subject: 'sub-bea' }]);

    await page.getByRole('button', { name: 'Disconnect Test ID' }).click();
    await expect.poll(() => page.getByText('Not connected').count()).toBe(1);
    expect(await e2e.haul.ctx.db.selectFrom('provider_links').select('id').where('user_id', '=', userId).execute()).toEqual([]);
  });

  it('does nothing with a callback this tab did not start', async () => {
    const { page } = await e2e.newPage();
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/auth/')) calls.push(r.url());
    });
    await page.goto('/drive/login/callback?code=planted&state=provider.planted-by-someone-else');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not started in this browser tab/);
    expect(calls.filter((u) => u.includes('/provider/token') || u.includes('/signin/with/provider'))).toEqual([]);
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.waitForURL('**/drive/login');
  });
});
