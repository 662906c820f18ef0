/**
 * Third-party apps in the browser: a small app on loopback sends a signed-out person to the consent screen, who signs
 * in, comes back to it, allows, and lands on the app's page with a code the test exchanges with a standard client
 * library; a second visit goes straight through; Deny and a bad redirect URI behave as RFC 6749 §4.1.2.1 says; and the
 * person disconnects the app from /account/apps, which ends its tokens at once.
 */
import { createServer, type Server } from 'node:http';
import * as oc from 'openid-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../apps/server/src/accounts/accounts.service.js';
import { createClient, type OAuthClient } from '../apps/server/src/oauth/oauth-clients.js';
import { PASSWORD, newEmail, startE2E, type E2E } from './harness.js';

let e2e: E2E;
let appServer: Server;
let redirectUri: string;
beforeAll(async () => {
  e2e = await startE2E();
  // The app's own page: shows what came back, as an app's callback would before exchanging it.
  appServer = createServer((req, res) => {
    const q = new URL(req.url ?? '/', 'http://app').searchParams;
    const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Photo Frame</title><h1>${q.get('code') ? 'Connected' : `Not connected: ${escape(q.get('error') ?? '')}`}</h1>`);
  });
  await new Promise<void>((r) => appServer.listen(0, '127.0.0.1', r));
  redirectUri = `http://127.0.0.1:${(appServer.address() as { port: number }).port}/callback`;
}, 60_000);
afterAll(async () => {
  appServer?.close();
  await e2e?.close();
});

function configFor(client: OAuthClient): oc.Configuration {
  const config = new oc.Configuration({ issuer: e2e.base, token_endpoint: `${e2e.base}/v1/auth/token` }, client.id, {}, oc.None());
  oc.allowInsecureRequests(config);
  return config;
}

/** An app's link to the consent screen, with a fresh PKCE verifier and state. */
async function consentLink(client: OAuthClient, redirect = redirectUri) {
  const verifier = oc.randomPKCECodeVerifier();
  const state = oc.randomState();
  const q = new URLSearchParams({ client_id: client.id, redirect_uri: redirect, response_type: 'code', scope: 'user+pan+offline', state, code_challenge: await oc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
  return { url: `/drive/authorize?${q}`, verifier, state };
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('third-party apps', () => {
  it('asks a signed-out person to sign in, then to allow; the app exchanges its code; a second visit goes straight through', async () => {
    const { client } = await createClient(e2e.haul.ctx, { name: 'Photo Frame', redirectUris: [redirectUri], confidential: false });
    const email = newEmail();
    await createUser(e2e.haul.ctx, { email, password: PASSWORD, name: 'Ann' });
    const { page } = await e2e.newPage();

    const first = await consentLink(client);
    await page.goto(first.url);
    await page.waitForURL('**/drive/login?**');
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Allow Photo Frame to use your Haul account?' }).waitFor();
    expect(await page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: /Allow Photo Frame/ }).getByRole('listitem').allTextContents()).toEqual([
      'See your name and e-mail address',
      'See, add, change and delete your files and folders, shares and cloud downloads',
      'Stay connected until you disconnect it',
    ]);
    // Allowing an app is a lasting way in: it takes the password.
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText('Enter your current password.').waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${redirectUri}?**`);
    await page.getByRole('heading', { name: 'Connected' }).waitFor();
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(first.state);

    const config = configFor(client);
    const tokens = await oc.authorizationCodeGrant(config, landed, { pkceCodeVerifier: first.verifier, expectedState: first.state });
    const me = await fetch(`${e2e.base}/v1/user/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(((await me.json()) as { email: string }).email).toBe(email);

    // Allowed before, for all it asks: no question this time.
    const second = await consentLink(client);
    await page.goto(second.url);
    await page.waitForURL(`${redirectUri}?**`);
    const again = await oc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: second.verifier, expectedState: second.state });
    expect(again.refresh_token).toBeTruthy();

    // Connected apps: the person disconnects it, and its tokens stop at once.
    await page.goto('/drive/account/apps');
    await page.getByRole('link', { name: 'Connected apps' }).waitFor();
    await page.getByText('Photo Frame').waitFor();
    await page.getByRole('button', { name: 'Disconnect Photo Frame' }).click();
    await page.getByText('No apps are connected.').waitFor();
    const after = await fetch(`${e2e.base}/v1/user/me`, { headers: { authorization: `Bearer ${again.access_token}` } });
    expect(after.status).toBe(401);
    // And the next visit asks again.
    await page.goto((await consentLink(client)).url);
    await page.getByRole('button', { name: 'Allow' }).waitFor();
  });

  it('sends Deny back to the app with access_denied and the state, and never leaves Haul for an unregistered redirect URI', async () => {
    const { client } = await createClient(e2e.haul.ctx, { name: 'Nosy App', redirectUris: [redirectUri], confidential: false });
    const email = newEmail();
    await createUser(e2e.haul.ctx, { email, password: PASSWORD, name: 'Bo' });
    const { page } = await e2e.newPage();
    await page.goto('/drive/login');
    await signIn(page, email);
    await page.waitForURL('**/drive/all');

    const link = await consentLink(client);
    await page.goto(link.url);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${redirectUri}?**`);
    const back = new URL(page.url());
    expect([back.searchParams.get('error'), back.searchParams.get('state'), back.searchParams.get('code')]).toEqual(['access_denied', link.state, null]);

    const bad = await consentLink(client, `${redirectUri}/elsewhere`);
    await page.goto(bad.url);
    await page.getByRole('heading', { name: 'This link to connect an app is not valid' }).waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('The redirect URI is not one that Nosy App registered.');
    expect(new URL(page.url()).origin).toBe(e2e.base);
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
  });
});
