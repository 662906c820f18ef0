/**
 * Sign-in providers against a real OpenID provider on loopback (oidc-provider, with its own login form): signing in
 * and signing up, connecting and disconnecting, and the abuse a relying party must refuse (a state not ours, used or
 * expired; a code of another provider; provider tokens tampered, expired, replayed or of a provider gone; ID tokens
 * with the wrong audience, nonce, issuer, expiry or signature; an e-mail match that must not connect accounts).
 */
import { randomBytes } from 'node:crypto';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { eraseAccount } from '../src/accounts/account-erasure.js';
import { signProviderToken } from '../src/providers/provider-token.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { authorizeAtProvider, startOidcProvider, type TestAccount, type TestOidcProvider } from './oidc-test-provider.js';

const REDIRECT = 'http://haul.test/drive/login/callback';
const PW = 'correct horse';
const account = (login: string, extra: Partial<TestAccount> = {}): TestAccount => ({ password: `pw-${login}`, email: `${login}@idp.example`, email_verified: true, name: `${login} Example`, ...extra });

let idp: TestOidcProvider;
let other: TestOidcProvider;
let h: TestHaul;
const clock = new ManualClock(Date.now());
const logs: string[] = [];

const newState = () => randomBytes(24).toString('base64url');

/** Starts a sign-in at `providerId`; answers the state and the provider's address. */
async function start(providerId = 'idp', state = newState()) {
  const res = await h.api('POST', '/v1/auth/provider/uri', undefined, { provider_id: providerId, provider_redirect_uri: REDIRECT, state });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { state, uri: res.body.uri as string };
}

/** Signs in at the provider as `login`; answers the state and the code it sent back (after checking the state, as the page does). */
async function codeFor(login: string, providerId = 'idp') {
  const { state, uri } = await start(providerId);
  const back = await authorizeAtProvider(uri, login, `pw-${login}`, REDIRECT);
  expect(back.searchParams.get('state')).toBe(state);
  return { state, code: back.searchParams.get('code')! };
}

const exchange = (state: string, code: string, providerId = 'idp') =>
  h.api('POST', '/v1/auth/provider/token', undefined, { provider_code: code, provider_id: providerId, provider_redirect_uri: REDIRECT, state });

async function providerToken(login: string, providerId = 'idp'): Promise<string> {
  const { state, code } = await codeFor(login, providerId);
  const res = await exchange(state, code, providerId);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.provider_token;
}

const signInWith = (token: string) => h.api('POST', '/v1/auth/signin/with/provider', undefined, { provider_token: token });
const sudo = async (access: string) => (await h.api('POST', '/v1/user/sudo', access, { password: PW })).body.sudo_token as string;
const linksOf = async (userId: string) => h.ctx.db.selectFrom('provider_links').selectAll().where('user_id', '=', userId).execute();

beforeAll(async () => {
  const accounts = { alice: account('alice'), bob: account('bob', { email_verified: false }), carol: account('carol'), dave: account('dave'), erin: account('erin'), fay: account('fay'), gus: account('gus'), ivy: account('ivy') };
  idp = await startOidcProvider({ accounts, redirectUris: [REDIRECT] });
  other = await startOidcProvider({ accounts, redirectUris: [REDIRECT] });
  h = await startTestHaul(
    {
      logLevel: 'info',
      oidcProviders: [
        { id: 'idp', name: 'Test ID', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: ['openid', 'email', 'profile'] },
        { id: 'other', name: 'Other ID', issuer: other.issuer, clientId: other.clientId, clientSecret: other.clientSecret, scopes: ['openid', 'email', 'profile'] },
      ],
    },
    clock,
    { logStream: { write: (line) => void logs.push(line) } },
  );
}, 60_000);

afterAll(async () => {
  await h?.destroy();
  await idp?.stop();
  await other?.stop();
});

describe('sign-in providers', () => {
  it('lists the configured providers without their secrets', async () => {
    const res = await h.api('GET', '/v1/auth/providers');
    expect(res.body).toEqual({ providers: [{ id: 'idp', name: 'Test ID' }, { id: 'other', name: 'Other ID' }], sign_up: true });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('starts the authorization code flow with PKCE S256, a nonce and the state', async () => {
    const { state, uri } = await start();
    const url = new URL(uri);
    expect(url.origin).toBe(idp.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: 'code', client_id: 'haul', redirect_uri: REDIRECT, state, code_challenge_method: 'S256', scope: 'openid email profile' });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(uri).not.toContain(idp.clientSecret);
    // The verifier is kept by the server, never handed out, and the state only as its hash.
    const row = await h.ctx.db.selectFrom('provider_states').selectAll().where('nonce', '=', url.searchParams.get('nonce')!).executeTakeFirstOrThrow();
    expect(row.id).not.toBe(state);
    expect(uri).not.toContain(row.code_verifier);
  });

  it('signs up on a first sign-in, signs in the same account after, and the account has no password', async () => {
    const first = await signInWith(await providerToken('alice'));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const me = await h.api('GET', '/v1/user/me', first.body.access_token);
    expect(me.body).toMatchObject({ email: 'alice@idp.example', name: 'alice Example', has_set_password: false });
    const again = await signInWith(await providerToken('alice'));
    expect(again.body.sub).toBe(first.body.sub);
    const links = await h.api('GET', '/v1/user/provider', again.body.access_token);
    expect(links.body).toMatchObject({ has_password: false, providers: [{ provider_id: 'idp', name: 'Test ID', email: 'alice@idp.example' }] });
    // No password opens it.
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: 'alice@idp.example', password: '' })).status).toBe(400);
    expect(logs.join('\n')).not.toContain(idp.clientSecret);
  });

  it('takes a provider token once', async () => {
    const token = await providerToken('alice');
    expect((await signInWith(token)).status).toBe(200);
    expect(await signInWith(token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a state it did not issue, used, expired, or of another provider or redirect address, and a missing code', async () => {
    const { state, code } = await codeFor('alice');
    expect(await exchange(newState(), code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(state, code, 'other')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const elsewhere = await h.api('POST', '/v1/auth/provider/token', undefined, { provider_code: code, provider_id: 'idp', provider_redirect_uri: 'http://evil.test/cb', state });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await h.api('POST', '/v1/auth/provider/token', undefined, { provider_code: '', provider_id: 'idp', provider_redirect_uri: REDIRECT, state })).status).toBe(400);
    expect((await exchange(state, code)).status).toBe(200);
    // Each state trades once.
    expect(await exchange(state, code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A state is new for each sign-in.
    const again = await h.api('POST', '/v1/auth/provider/uri', undefined, { provider_id: 'idp', provider_redirect_uri: REDIRECT, state });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_argument' } });
    // Ten minutes at the provider, no more.
    const late = await codeFor('alice');
    clock.advance(11 * 60_000);
    expect(await exchange(late.state, late.code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Short or odd states are not random enough to be one.
    expect((await h.api('POST', '/v1/auth/provider/uri', undefined, { provider_id: 'idp', provider_redirect_uri: REDIRECT, state: 'short' })).status).toBe(400);
    expect((await h.api('POST', '/v1/auth/provider/uri', undefined, { provider_id: 'nope', provider_redirect_uri: REDIRECT, state: newState() })).body.error).toBe('invalid_argument');
  });

  it('refuses a code another provider issued, sent back with our state', async () => {
    const ours = await start('idp');
    const theirs = await codeFor('alice', 'other');
    expect(await exchange(ours.state, theirs.code, 'idp')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses ID tokens with the wrong audience, nonce, issuer, expiry or signature', async () => {
    const cases: [string, (c: Record<string, unknown>) => Record<string, unknown>][] = [
      ['audience', (c) => ({ ...c, aud: 'someone-else' })],
      ['nonce', (c) => ({ ...c, nonce: 'not-the-one-we-sent' })],
      ['issuer', (c) => ({ ...c, iss: other.issuer })],
      ['expiry', (c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })],
      ['no nonce', ({ nonce: _n, ...c }) => c],
    ];
    try {
      for (const [what, change] of cases) {
        const { state, code } = await codeFor('alice');
        idp.mutateIdToken = change;
        const res = await exchange(state, code);
        idp.mutateIdToken = null;
        expect(res, what).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      }
      // The unchanged claims, signed by someone else's key under the provider's key id.
      const { state, code } = await codeFor('alice');
      idp.forgeKey = (await generateKeyPair('RS256')).privateKey;
      idp.mutateIdToken = (c) => c;
      expect(await exchange(state, code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    } finally {
      idp.mutateIdToken = null;
      idp.forgeKey = null;
    }
    // Re-signed unchanged with the provider's own key, it is accepted: the refusals above were for what changed.
    const { state, code } = await codeFor('alice');
    idp.mutateIdToken = (c) => c;
    const ok = await exchange(state, code);
    idp.mutateIdToken = null;
    expect(ok.status).toBe(200);
  });

  it('refuses provider tokens tampered, expired, of a provider no longer configured or of another issuer, and access tokens', async () => {
    const token = await providerToken('alice');
    const [head, body, sig] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, psub: 'sub-dave' })).toString('base64url')}.${sig}`;
    expect(await signInWith(forged)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const identity = { issuer: idp.issuer, subject: 'sub-alice', email: 'alice@idp.example', emailVerified: true, name: '' };
    expect((await signInWith(await signProviderToken(h.ctx, { ...identity, providerId: 'gone' }, claims.st))).body.error).toBe('invalid_grant');
    expect((await signInWith(await signProviderToken(h.ctx, { ...identity, providerId: 'other' }, claims.st))).body.error).toBe('invalid_grant');
    const session = await h.signUp();
    expect((await signInWith(session.access_token)).body.error).toBe('invalid_grant');
    clock.advance(11 * 60_000);
    expect(await signInWith(token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('never connects an account because the e-mail matches: the owner signs in with the password and connects it', async () => {
    const carol = await h.signUp('carol@idp.example', PW);
    const res = await signInWith(await providerToken('carol'));
    expect(res).toMatchObject({ status: 409, body: { error: 'failed_precondition' } });
    expect(res.body.error_description).toMatch(/sign in with its password/i);
    expect(await linksOf(carol.sub)).toHaveLength(0);
    // Connecting takes the owner's confirmation (a sudo token), because it adds a lasting way in.
    const noSudo = await h.api('POST', '/v1/user/provider/bind', carol.access_token, { provider_token: await providerToken('carol') });
    expect(noSudo).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const bound = await h.api('POST', '/v1/user/provider/bind', carol.access_token, { provider_token: await providerToken('carol'), force_replace: true, sudo_token: await sudo(carol.access_token) });
    expect(bound.body).toMatchObject({ provider_id: 'idp', name: 'Test ID', email: 'carol@idp.example' });
    expect((await signInWith(await providerToken('carol'))).body.sub).toBe(carol.sub);
    expect((await h.api('GET', '/v1/user/me', carol.access_token)).body.has_set_password).toBe(true);
  });

  it('makes no account for an e-mail the provider did not verify, nor while registration is closed', async () => {
    expect((await signInWith(await providerToken('bob'))).body.error).toBe('failed_precondition');
    expect(await h.ctx.db.selectFrom('users').select('id').where('email', '=', 'bob@idp.example').executeTakeFirst()).toBeUndefined();
    h.ctx.config.registration = 'closed';
    try {
      expect(await signInWith(await providerToken('gus'))).toMatchObject({ status: 403, body: { error: 'permission_denied' } });
    } finally {
      h.ctx.config.registration = 'open';
    }
  });

  it('keeps one identity per account and provider, and one account per identity', async () => {
    const dave = await h.signUp('dave@example.com', PW);
    const erin = await h.signUp('erin@example.com', PW);
    const bind = async (who: typeof dave, login: string, extra = {}) =>
      h.api('POST', '/v1/user/provider/bind', who.access_token, { provider_token: await providerToken(login), sudo_token: await sudo(who.access_token), ...extra });
    expect((await bind(dave, 'dave')).status).toBe(200);
    // The same identity again is no change.
    expect((await bind(dave, 'dave')).status).toBe(200);
    expect((await bind(erin, 'dave')).body.error).toBe('already_exists');
    expect((await bind(dave, 'erin')).body.error).toBe('already_exists');
    expect((await bind(dave, 'erin', { force_replace: true })).body.email).toBe('erin@idp.example');
    expect((await linksOf(dave.sub)).map((l) => l.subject)).toEqual(['sub-erin']);
    // Another account cannot see or disconnect it.
    expect((await h.api('GET', '/v1/user/provider', erin.access_token)).body.providers).toEqual([]);
    expect((await h.api('DELETE', '/v1/user/provider', erin.access_token, { provider_id: 'idp' })).body.error).toBe('not_found');
    expect(await linksOf(dave.sub)).toHaveLength(1);
    // An account with a password may let its only provider go.
    expect((await h.api('DELETE', '/v1/user/provider', dave.access_token, { provider_id: 'idp' })).status).toBe(200);
    expect(await linksOf(dave.sub)).toHaveLength(0);
  });

  it('refuses to disconnect the last way into an account without a password', async () => {
    const fay = (await signInWith(await providerToken('fay'))).body;
    const last = await h.api('DELETE', '/v1/user/provider', fay.access_token, { provider_id: 'idp' });
    expect(last).toMatchObject({ status: 409, body: { error: 'failed_precondition' } });
    // With a second provider connected (no password to confirm with: the session is the proof), one may go.
    expect((await h.api('POST', '/v1/user/provider/bind', fay.access_token, { provider_token: await providerToken('fay', 'other') })).status).toBe(200);
    expect((await h.api('DELETE', '/v1/user/provider', fay.access_token, { provider_id: 'idp' })).status).toBe(200);
    expect((await h.api('DELETE', '/v1/user/provider', fay.access_token, { provider_id: 'other' })).body.error).toBe('failed_precondition');
    expect((await signInWith(await providerToken('fay', 'other'))).body.sub).toBe(fay.sub);
  });

  it('signs in no disabled account, and an erased account takes its connections with it', async () => {
    const gus = (await signInWith(await providerToken('gus'))).body;
    await h.ctx.db.updateTable('users').set({ disabled_at: clock.now() }).where('id', '=', gus.sub).execute();
    expect(await signInWith(await providerToken('gus'))).toMatchObject({ status: 403, body: { error: 'permission_denied' } });
    await h.ctx.db.updateTable('users').set({ disabled_at: null }).where('id', '=', gus.sub).execute();
    await markAccountDeleted(h.ctx, gus.sub);
    expect(await linksOf(gus.sub)).toHaveLength(1);
    expect(await eraseAccount(h.ctx, gus.sub)).toBe('done');
    expect(await linksOf(gus.sub)).toHaveLength(0);
    expect(await h.ctx.db.selectFrom('provider_links').select('id').where('subject', '=', 'sub-gus').execute()).toHaveLength(0);
    // The identity is free again: a new sign-in makes a new account.
    const fresh = await signInWith(await providerToken('gus'));
    expect(fresh.status).toBe(200);
    expect(fresh.body.sub).not.toBe(gus.sub);
  });

  it('carries an invite code into the account a first sign-in makes', async () => {
    const host = await h.signUp('host-of-ivy@example.com');
    const { invitation_code } = (await h.api('GET', '/vip/v1/activity/invite', host.access_token)).body;
    const res = await h.api('POST', '/v1/auth/signin/with/provider', undefined, { provider_token: await providerToken('ivy'), invitation_code });
    expect(res.status).toBe(200);
    // Both came from the test's one address: recorded, and not rewarded for it.
    const { invited } = (await h.api('GET', '/vip/v1/activity/invite', host.access_token)).body;
    expect(invited).toEqual([expect.objectContaining({ name: 'iv***@idp.example', rewarded: false, reason: 'same_address' })]);
  });
});
