/**
 * Third-party apps: the authorization code flow with PKCE run by a standard client library (openid-client) against
 * Haul listening on loopback, and the ways it must refuse: wrong verifier, a code used twice, another app's code,
 * redirect mismatches, expired codes, plain PKCE, app tokens on account security, revocation, introspection.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as oc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { createClient, type OAuthClient } from '../src/oauth/oauth-clients.js';
import { ManualClock, startTestHaul, sudoToken, type TestHaul } from './helper.js';
import { ADMIN_MAIN } from './child-server.js';

const REDIRECT = 'http://127.0.0.1:8123/callback';
const PASSWORD = 'correct horse';

describe('third-party apps (OAuth 2.0 code + PKCE)', () => {
  let h: TestHaul;
  let base: string;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    // Links (and the metadata's issuer) follow the address used, as a library discovering the server expects.
    h = await startTestHaul({ publicUrlPinned: false }, clock);
    base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => h.destroy());

  const publicApp = (name = 'Photo Frame', redirects = [REDIRECT]) => createClient(h.ctx, { name, redirectUris: redirects, confidential: false });

  /** The library's view of Haul, written out (the first test discovers it from the metadata instead). */
  function configFor(client: OAuthClient, auth: oc.ClientAuth = oc.None()): oc.Configuration {
    const config = new oc.Configuration(
      {
        issuer: base,
        authorization_endpoint: `${base}/drive/authorize`,
        token_endpoint: `${base}/v1/auth/token`,
        introspection_endpoint: `${base}/v1/auth/token/introspect`,
        revocation_endpoint: `${base}/v1/auth/revoke`,
      },
      client.id,
      {},
      auth,
    );
    oc.allowInsecureRequests(config);
    return config;
  }

  /** What the consent screen does: reads the request, and on Allow posts it; answers where the browser goes. */
  async function consent(config: oc.Configuration, person: string, extra: Record<string, string> = {}) {
    const verifier = oc.randomPKCECodeVerifier();
    const state = oc.randomState();
    const url = oc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'user pan offline',
      code_challenge: await oc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    const params = Object.fromEntries(url.searchParams);
    const info = await h.api('GET', `/v1/user/authorize/info${url.search}`, person);
    const allowed = await h.api('POST', '/v1/user/authorize', person, { ...params, sudo_token: await sudoToken(h, person, PASSWORD) });
    return { verifier, state, params, info, allowed, callback: allowed.body?.redirect_url ? new URL(allowed.body.redirect_url as string) : null };
  }

  const exchange = (config: oc.Configuration, callback: URL, verifier: string, state: string) =>
    oc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  /** The OAuth error name a rejected library call carried. */
  const oauthError = (p: Promise<unknown>) => p.then(() => 'no error', (e: { error?: string; code?: string }) => e.error ?? e.code ?? String(e));
  const status = async (method: string, url: string, token: string, body?: unknown) => (await h.api(method, url, token, body)).status;
  const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });

  it('runs the whole flow with a standard client: consent, code, tokens, refresh, revocation', async () => {
    const app = (await publicApp()).client;
    const config = await oc.discovery(new URL(base), app.id, undefined, oc.None(), { algorithm: 'oauth2', execute: [oc.allowInsecureRequests] });
    expect(config.serverMetadata()).toMatchObject({ issuer: base, authorization_endpoint: `${base}/drive/authorize`, code_challenge_methods_supported: ['S256'] });
    const person = await h.signUp();
    const before = await h.api('GET', `/v1/user/authorize/detect?${new URLSearchParams({ client_id: app.id, redirect_uri: REDIRECT, response_type: 'code', scope: 'user+pan+offline', state: 's', code_challenge: 'A'.repeat(43), code_challenge_method: 'S256' })}`, person.access_token);
    expect(before.body).toEqual({ consented: false });

    const { verifier, state, info, allowed, callback, params } = await consent(config, person.access_token);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ client_id: app.id, client_name: 'Photo Frame', scope: 'user pan offline', redirect_uri: REDIRECT, state });
    expect(info.body.scopes.map((s: { name: string }) => s.name)).toEqual(['user', 'pan', 'offline']);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['cache-control']).toBe('no-store');
    expect(callback!.origin + callback!.pathname).toBe(REDIRECT);
    expect(callback!.searchParams.get('state')).toBe(state);
    expect((await h.api('GET', `/v1/user/authorize/detect?${new URLSearchParams(params)}`, person.access_token)).body).toEqual({ consented: true });

    const tokens = await exchange(config, callback!, verifier, state);
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'user pan offline', sub: person.sub });
    expect(tokens.refresh_token).toBeTruthy();
    // The drive and the person's name: yes.
    expect(await status('GET', '/drive/v1/files?parent_id=', tokens.access_token)).toBe(200);
    expect((await h.api('GET', '/v1/user/me', tokens.access_token)).body.sub).toBe(person.sub);

    // Refresh rotates like any session's.
    const next = await oc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(await status('GET', '/drive/v1/files?parent_id=', next.access_token)).toBe(200);
    const after = await oc.refreshTokenGrant(config, next.refresh_token!);
    // The first token again, its successor already used: a replay.
    expect(await oauthError(oc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    // That replay ended the session (RFC 6819): a new consent for the rest.
    expect(await status('GET', '/v1/user/me', after.access_token)).toBe(401);

    const again = await consent(config, person.access_token);
    const fresh = await exchange(config, again.callback!, again.verifier, again.state);
    // The connected apps list shows it; revocation by the library (RFC 7009) ends its session.
    const apps = await h.api('GET', '/v1/user/apps', person.access_token);
    expect(apps.body.apps).toMatchObject([{ client_id: app.id, name: 'Photo Frame', scope: 'user pan offline' }]);
    await oc.tokenRevocation(config, fresh.refresh_token!);
    expect(await status('GET', '/v1/user/me', fresh.access_token)).toBe(401);
    // The person's own session was never touched.
    expect(await status('GET', '/v1/user/me', person.access_token)).toBe(200);
  });

  it('refuses a wrong verifier, a code used twice (ending what it gave), another app\'s code, a changed redirect_uri and an expired code', async () => {
    const a = (await publicApp('App A')).client;
    const b = (await publicApp('App B')).client;
    const person = await h.signUp();
    const configA = configFor(a);

    const wrong = await consent(configA, person.access_token);
    expect(await oauthError(exchange(configA, wrong.callback!, oc.randomPKCECodeVerifier(), wrong.state))).toBe('invalid_grant');
    // The failed try spent the code: the right verifier is too late.
    expect(await oauthError(exchange(configA, wrong.callback!, wrong.verifier, wrong.state))).toBe('invalid_grant');

    const twice = await consent(configA, person.access_token);
    const first = await exchange(configA, twice.callback!, twice.verifier, twice.state);
    expect(await status('GET', '/v1/user/me', first.access_token)).toBe(200);
    expect(await oauthError(exchange(configA, twice.callback!, twice.verifier, twice.state))).toBe('invalid_grant');
    expect(await status('GET', '/v1/user/me', first.access_token)).toBe(401);
    expect((await form('/v1/auth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token! })).statusCode).toBe(401);

    const stolen = await consent(configA, person.access_token);
    expect(await oauthError(exchange(configFor(b), stolen.callback!, stolen.verifier, stolen.state))).toBe('invalid_grant');

    const moved = await consent(configA, person.access_token);
    const res = await form('/v1/auth/token', { grant_type: 'authorization_code', client_id: a.id, code: moved.callback!.searchParams.get('code')!, redirect_uri: `${REDIRECT}/other`, code_verifier: moved.verifier });
    expect([res.statusCode, res.json().error]).toEqual([400, 'invalid_grant']);

    const late = await consent(configA, person.access_token);
    clock.advance(61_000);
    expect(await oauthError(exchange(configA, late.callback!, late.verifier, late.state))).toBe('invalid_grant');
  });

  it('never redirects for an unknown app or an unregistered redirect URI, and sends other faults back with the state', async () => {
    const app = (await publicApp('Strict')).client;
    const person = await h.signUp();
    const q = (over: Record<string, string>) =>
      `/v1/user/authorize/info?${new URLSearchParams({ client_id: app.id, redirect_uri: REDIRECT, response_type: 'code', scope: 'user+pan+offline', state: 'xyz', code_challenge: 'A'.repeat(43), code_challenge_method: 'S256', ...over })}`;
    const info = (over: Record<string, string>) => h.api('GET', q(over), person.access_token);
    expect((await info({ client_id: 'nobody-at-all-000000' })).body.details).toEqual([{ reason: 'INVALID_CLIENT' }]);
    for (const uri of [`${REDIRECT}/`, 'http://127.0.0.1:8123/callback?x=1', 'http://evil.example/callback', 'HTTP://127.0.0.1:8123/callback']) {
      const r = await info({ redirect_uri: uri });
      expect([r.status, r.body.details]).toEqual([400, [{ reason: 'INVALID_REDIRECT_URI' }]]);
    }
    const back = async (over: Record<string, string>) => {
      const r = await info(over);
      expect(r.status).toBe(400);
      const d = r.body.details[0];
      expect(d.reason).toBe('REDIRECT');
      const u = new URL(d.redirect);
      expect(u.origin + u.pathname).toBe(REDIRECT);
      expect(u.searchParams.get('error')).toBe(d.error);
      return [d.error, u.searchParams.get('state')];
    };
    expect(await back({ code_challenge_method: 'plain' })).toEqual(['invalid_request', 'xyz']);
    expect(await back({ code_challenge_method: '' })).toEqual(['invalid_request', 'xyz']);
    expect(await back({ code_challenge: 'short' })).toEqual(['invalid_request', 'xyz']);
    expect(await back({ scope: 'user admin' })).toEqual(['invalid_scope', 'xyz']);
    expect(await back({ response_type: 'token' })).toEqual(['unsupported_response_type', 'xyz']);
    expect(await back({ state: '' })).toEqual(['invalid_request', null]);
    // The same checks guard the grant itself: no code for a plain challenge.
    const plain = await h.api('POST', '/v1/user/authorize', person.access_token, Object.fromEntries(new URL(`http://x${q({ code_challenge_method: 'plain' })}`).searchParams));
    expect(plain.status).toBe(400);
    expect(await h.ctx.db.selectFrom('oauth_codes').select('id').where('user_id', '=', person.sub).execute()).toEqual([]);
  });

  it('keeps app tokens out of account security, and within their scope', async () => {
    const app = (await publicApp('Curious')).client;
    const person = await h.signUp();
    const config = configFor(app);
    const c = await consent(config, person.access_token);
    const t = (await exchange(config, c.callback!, c.verifier, c.state)).access_token;
    const denied = async (method: string, url: string, body?: unknown) => {
      const r = await h.api(method, url, t, body);
      return `${r.status} ${r.body?.error}`;
    };
    expect(await denied('POST', '/v1/user/sudo', { password: PASSWORD })).toBe('403 permission_denied');
    expect(await denied('POST', '/v1/user/password', { sudo_token: 'x', new_password: 'another password' })).toBe('403 permission_denied');
    expect(await denied('POST', '/v1/user/me/deletion', { sudo_token: 'x' })).toBe('403 permission_denied');
    expect(await denied('DELETE', '/v1/user/sessions')).toBe('403 permission_denied');
    expect(await denied('GET', '/v1/user/apps')).toBe('403 permission_denied');
    expect(await denied('POST', '/v1/user/authorize', c.params)).toBe('403 permission_denied');
    // Mailing codes about the account needs the person: an app's token counts as signed out there.
    expect(await denied('POST', '/v1/auth/verification', { usage: 'DELETION' })).toBe('401 unauthenticated');
    expect(await status('GET', '/v1/user/me', person.access_token)).toBe(200);

    // A narrower grant: "user" alone reads the person, not the drive (nor tus), and gets no refresh token.
    const narrow = await consent(config, person.access_token, { scope: 'user' });
    const tokens = await exchange(config, narrow.callback!, narrow.verifier, narrow.state);
    expect(tokens.refresh_token).toBeUndefined();
    expect(await status('GET', '/v1/user/me', tokens.access_token)).toBe(200);
    expect(await status('GET', '/drive/v1/files?parent_id=', tokens.access_token)).toBe(403);
    const tus = await h.app.inject({ method: 'HEAD', url: '/drive/v1/uploads/AAAAAAAAAAAAAAAAAAAA', headers: { authorization: `Bearer ${tokens.access_token}`, 'tus-resumable': '1.0.0' } });
    expect(tus.statusCode).toBe(403);
  });

  it('ends an app at once when the person disconnects it, signs out everywhere, or the operator deletes it', async () => {
    const app = (await publicApp('Backup')).client;
    const person = await h.signUp();
    const config = configFor(app);
    const connect = async () => {
      const c = await consent(config, person.access_token);
      return exchange(config, c.callback!, c.verifier, c.state);
    };
    const t1 = await connect();
    const other = await h.signUp();
    expect(await status('DELETE', `/v1/user/apps/${app.id}`, other.access_token)).toBe(404);
    expect(await status('GET', '/v1/user/me', t1.access_token)).toBe(200);
    expect(await status('DELETE', `/v1/user/apps/${app.id}`, person.access_token)).toBe(200);
    expect(await status('GET', '/v1/user/me', t1.access_token)).toBe(401);
    expect(await oauthError(oc.refreshTokenGrant(config, t1.refresh_token!))).toBe('invalid_grant');
    expect((await h.api('GET', '/v1/user/apps', person.access_token)).body.apps).toEqual([]);
    expect(await status('DELETE', `/v1/user/apps/${app.id}`, person.access_token)).toBe(404);

    const t2 = await connect();
    expect(await status('DELETE', '/v1/user/sessions', person.access_token)).toBe(200);
    expect(await status('GET', '/v1/user/me', t2.access_token)).toBe(401);

    const fresh = await h.api('POST', '/v1/auth/signin', undefined, { username: (await h.ctx.db.selectFrom('users').select('email').where('id', '=', person.sub).executeTakeFirstOrThrow()).email, password: PASSWORD });
    const c = await consent(config, fresh.body.access_token);
    const t3 = await exchange(config, c.callback!, c.verifier, c.state);
    const { deleteClient } = await import('../src/oauth/oauth-clients.js');
    expect(await deleteClient(h.ctx.db, app.id)).toBe(true);
    expect(await status('GET', '/v1/user/me', t3.access_token)).toBe(401);
    expect((await h.api('GET', '/v1/user/apps', fresh.body.access_token)).body.apps).toEqual([]);
  });

  it('introspects for an authenticated app or a token holder, and tells nobody about tokens not theirs', async () => {
    const { client: conf, secret } = await createClient(h.ctx, { name: 'Server App', redirectUris: [REDIRECT], confidential: true });
    const config = configFor(conf, oc.ClientSecretBasic(secret!));
    const person = await h.signUp();
    const c = await consent(config, person.access_token);
    const tokens = await exchange(config, c.callback!, c.verifier, c.state);

    const live = await oc.tokenIntrospection(config, tokens.access_token);
    expect(live).toMatchObject({ active: true, client_id: conf.id, scope: 'user pan offline', sub: person.sub, token_type: 'Bearer' });
    expect(await oc.tokenIntrospection(config, tokens.refresh_token!)).toMatchObject({ active: true, token_type: 'refresh_token' });
    // The person's own token is not this app's business.
    expect(await oc.tokenIntrospection(config, person.access_token)).toEqual({ active: false });
    // Wrong secret, no secret, or nothing at all.
    const wrongSecret = configFor(conf, oc.ClientSecretPost('not-the-secret'));
    expect(await oauthError(oc.tokenIntrospection(wrongSecret, tokens.access_token))).toBe('invalid_client');
    expect(await oauthError(exchange(configFor(conf), c.callback!, c.verifier, c.state))).toBe('invalid_client');
    expect((await form('/v1/auth/token/introspect', { token: tokens.access_token })).json().error).toBe('unauthenticated');
    // A token holder asks with its bearer token: the person about their own tokens, an app about its own.
    const asPerson = await form('/v1/auth/token/introspect', { token: tokens.access_token }, { authorization: `Bearer ${person.access_token}` });
    expect(asPerson.json()).toMatchObject({ active: true, client_id: conf.id });
    const stranger = await h.signUp();
    expect((await form('/v1/auth/token/introspect', { token: tokens.access_token }, { authorization: `Bearer ${stranger.access_token}` })).json()).toEqual({ active: false });

    // A refresh of a confidential app's token needs its secret.
    expect(await oauthError(oc.refreshTokenGrant(configFor(conf), tokens.refresh_token!))).toBe('invalid_client');
    const next = await oc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(await oc.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true });
    expect(await oc.tokenIntrospection(config, tokens.refresh_token!)).toEqual({ active: false });
    await oc.tokenRevocation(config, next.access_token);
    expect(await oc.tokenIntrospection(config, next.access_token)).toEqual({ active: false });
    expect(await status('GET', '/v1/user/me', next.access_token)).toBe(401);
  });

  it('erases consents, codes and app sessions with a deleted account', async () => {
    const app = (await publicApp('Leftovers')).client;
    const person = await h.signUp();
    const config = configFor(app);
    const c = await consent(config, person.access_token);
    await exchange(config, c.callback!, c.verifier, c.state);
    await consent(config, person.access_token); // a code never exchanged
    const rows = async () => ({
      consents: (await h.ctx.db.selectFrom('oauth_consents').select('client_id').where('user_id', '=', person.sub).execute()).length,
      codes: (await h.ctx.db.selectFrom('oauth_codes').select('id').where('user_id', '=', person.sub).execute()).length,
      sessions: (await h.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', person.sub).where('client_id', '=', app.id).execute()).length,
    });
    expect(await rows()).toEqual({ consents: 1, codes: 2, sessions: 1 });
    const sudo = (await h.api('POST', '/v1/user/sudo', person.access_token, { password: PASSWORD })).body.sudo_token;
    expect(await status('POST', '/v1/user/me/deletion', person.access_token, { sudo_token: sudo })).toBe(200);
    expect(await eraseAccount(h.ctx, person.sub)).toBe('done');
    expect(await rows()).toEqual({ consents: 0, codes: 0, sessions: 0 });
    // The app itself stays, for other people.
    expect(await h.ctx.db.selectFrom('oauth_clients').select('id').where('id', '=', app.id).executeTakeFirst()).toBeTruthy();
  });
});

describe('haul-admin oauth-client', () => {
  const run = promisify(execFile);
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-cli-oauth-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { ...process.env, HAUL_DATA_DIR: dataDir, DATABASE_URL: '', HAUL_LOG_LEVEL: 'silent' };
  const admin = (...args: string[]) => run(process.execPath, [ADMIN_MAIN, ...args], { env });

  it('registers, lists and deletes apps; the secret is shown once and kept only as a hash', async () => {
    const made = await admin('oauth-client', 'create', 'Sync Tool', '--redirect-uri', 'https://sync.example/cb', '--redirect-uri', 'http://127.0.0.1:7000/cb', '--confidential');
    const id = /client_id: (\S+)/.exec(made.stdout)![1]!;
    const secret = /client_secret: (\S+)/.exec(made.stdout)![1]!;
    const listed = await admin('oauth-client', 'list');
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('Sync Tool');
    expect(listed.stdout).not.toContain(secret);
    await expect(admin('oauth-client', 'create', 'Bad', '--redirect-uri', 'http://evil.example/cb')).rejects.toMatchObject({ stderr: expect.stringMatching(/loopback/) });
    expect((await admin('oauth-client', 'delete', id)).stdout).toMatch(/deleted/);
    expect((await admin('oauth-client', 'list')).stdout).not.toContain(id);
    await expect(admin('oauth-client', 'delete', id)).rejects.toMatchObject({ stderr: expect.stringMatching(/no app/) });
    // Four runs, each starting Node and the server's code: slow on a busy machine.
  }, 90_000);
});
