/**
 * New accounts' premium trial (`trial_days`, HAUL_TRIAL_DAYS): off unless set; on, every way an account is made by or
 * for a newcomer (sign-up, a sign-in by mailed code, the console) grants premium for N days once per address, told to
 * the clients as `free_vip` and `free_days`; an address whose account was deleted gets no second trial, and a change
 * of the setting holds from the next sign-up. A sign-in provider's first sign-in, against a real OpenID provider on
 * loopback, gets it too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { loadConfig } from '../src/config.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { authorizeAtProvider, startOidcProvider, type TestOidcProvider } from './oidc-test-provider.js';

const PW = 'correct horse';
const DAY = 86_400_000;

describe('premium trial for new accounts', () => {
  const clock = new ManualClock();
  let h: TestHaul;
  let admin: TokenResponse;
  const vip = async (token: string) => (await h.api('GET', '/vip/v1/vip/info', token)).body;
  const entry = async (token: string) => (await h.api('GET', '/vip/v1/activity/upgradeToPro', token)).body;
  const settings = (body: unknown) => h.api('PATCH', '/admin/v1/settings', admin.access_token, body);
  const trialRows = () => h.ctx.db.selectFrom('trials').selectAll().execute();

  beforeAll(async () => {
    // Tokens outlive the days the clock is moved on.
    h = await startTestHaul({ accessTokenTtlSeconds: 365 * 86400, refreshTokenTtlSeconds: 365 * 86400 }, clock);
    // Made as `haul-admin create-user` makes it: the operator's own tool grants no trial.
    await createUser(h.ctx, { email: 'operator@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'operator@example.com', password: PW })).body;
  });
  afterAll(() => h?.destroy());

  it('is off by default: a sign-up gets no premium and no trial is recorded', async () => {
    expect(loadConfig({}).trialDays).toBe(0);
    expect((await h.api('GET', '/admin/v1/settings', admin.access_token)).body.settings.trial_days).toBe(0);
    const plain = await h.signUp('plain@example.com');
    expect(await vip(plain.access_token)).toMatchObject({ premium: false, surplus_day: 0, grants: [], free_vip: false, free_days: 0 });
    expect(await entry(plain.access_token)).toMatchObject({ premium: false, free_vip: false, free_days: 0 });
    expect(await vip(admin.access_token)).toMatchObject({ premium: false, grants: [] });
    expect(await trialRows()).toEqual([]);
  });

  it('reads HAUL_TRIAL_DAYS, and refuses a value out of 0..365 from the environment and the console', async () => {
    expect(loadConfig({ HAUL_TRIAL_DAYS: '14' }).trialDays).toBe(14);
    expect(() => loadConfig({ HAUL_TRIAL_DAYS: '366' })).toThrow(/HAUL_TRIAL_DAYS/);
    expect(() => loadConfig({ HAUL_TRIAL_DAYS: '2.5' })).toThrow(/HAUL_TRIAL_DAYS/);
    for (const bad of [366, -1, 1.5, '7']) {
      const res = await settings({ trial_days: bad });
      expect([res.status, res.body.error], String(bad)).toEqual([400, 'invalid_argument']);
    }
    expect(h.ctx.config.trialDays).toBe(0);
  });

  it('on: a sign-up, a sign-in by mailed code and an account the operator makes each get premium for N days', async () => {
    const set = await settings({ trial_days: 14 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.settings.trial_days).toBe(14);
    const events = await h.ctx.db.selectFrom('audit_events').select('details').where('action', '=', 'admin.settings.changed').execute();
    expect(events.map((e) => JSON.parse(e.details))).toContainEqual({ trial_days: { from: 0, to: 14 } });

    const ann = await h.signUp('ann@example.com');
    const annVip = await vip(ann.access_token);
    expect(annVip).toMatchObject({ premium: true, surplus_day: 14, free_vip: true, free_days: 14 });
    expect(annVip.grants).toEqual([expect.objectContaining({ kind: 'premium', source: 'trial' })]);
    expect(Date.parse(annVip.expire) - clock.now()).toBe(14 * DAY);
    expect(await entry(ann.access_token)).toMatchObject({ premium: true, surplus_day: 14, free_vip: true, free_days: 14 });
    expect((await h.api('GET', '/v1/user/me', ann.access_token)).body).toMatchObject({ premium: true, vip_status: 'ok' });

    // A new address signing in by a mailed code (usage REGISTER_SIGN_IN) is made an account: the same trial.
    const fresh = 'bycode@example.com';
    const asked = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'REGISTER_SIGN_IN', email: fresh });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const mail = await vi.waitFor(() => h.ctx.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', fresh).executeTakeFirstOrThrow(), { timeout: 5000, interval: 20 });
    const code = /\b(\d{6})\b/.exec(mail.text_body)![1];
    const verified = await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: asked.body.verification_id, verification_code: code });
    const byCode = await h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: verified.body.verification_token, email: fresh });
    expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
    expect(await vip(byCode.body.access_token)).toMatchObject({ premium: true, surplus_day: 14, free_vip: true, free_days: 14 });

    // The console's create account: the person it is for is new here too.
    const made = await h.api('POST', '/admin/v1/users', admin.access_token, { email: 'made@example.com', password: 'a fine password' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await h.api('GET', `/admin/v1/users/${made.body.id}/grants`, admin.access_token)).body).toMatchObject({ premium: true, surplus_day: 14, free_vip: true });

    // One row per address, holding only its hash.
    const rows = await trialRows();
    expect(rows).toHaveLength(3);
    expect(JSON.stringify(rows)).not.toMatch(/@example\.com/);

    // Days run down with the clock (a part day counts as one); premium bought or granted on top ends "trial alone".
    clock.advance(3.5 * DAY);
    expect(await vip(ann.access_token)).toMatchObject({ surplus_day: 11, free_vip: true, free_days: 11 });
    expect((await h.api('POST', `/admin/v1/users/${ann.sub}/grants`, admin.access_token, { grant: 'premium:30d' })).status).toBe(200);
    expect(await vip(ann.access_token)).toMatchObject({ premium: true, surplus_day: 41, free_vip: false, free_days: 11 });
    expect(await entry(ann.access_token)).toMatchObject({ free_vip: false, free_days: 11 });
    // Past its end the trial is over: premium without it, and nothing said of a trial.
    clock.advance(11 * DAY);
    expect(await vip(ann.access_token)).toMatchObject({ premium: true, surplus_day: 30, free_vip: false, free_days: 0 });
    clock.advance(31 * DAY);
    expect(await vip(byCode.body.access_token)).toMatchObject({ premium: false, free_vip: false, free_days: 0 });
  });

  it('gives no second trial to an address whose account was deleted, and the erasure leaves only its hash', async () => {
    const first = await h.signUp('again@example.com');
    expect(await vip(first.access_token)).toMatchObject({ premium: true, free_vip: true, free_days: 14 });
    expect((await h.api('DELETE', `/admin/v1/users/${first.sub}`, admin.access_token)).status).toBe(200);
    await h.erasure.idle();
    expect(await h.ctx.db.selectFrom('users').select('id').where('id', '=', first.sub).execute()).toEqual([]);
    const rows = JSON.stringify(await trialRows());
    expect(rows).not.toContain(first.sub);
    expect(rows).not.toContain('again@example.com');

    const second = await h.signUp('  Again@Example.com ');
    expect(second.sub).not.toBe(first.sub);
    expect(await vip(second.access_token)).toMatchObject({ premium: false, grants: [], free_vip: false, free_days: 0 });
    // The console's create account for that address gets none either.
    expect((await h.api('DELETE', `/admin/v1/users/${second.sub}`, admin.access_token)).status).toBe(200);
    await h.erasure.idle();
    const made = await h.api('POST', '/admin/v1/users', admin.access_token, { email: 'again@example.com', password: 'a fine password' });
    expect((await h.api('GET', `/admin/v1/users/${made.body.id}/grants`, admin.access_token)).body).toMatchObject({ premium: false, grants: [] });
  });

  it('follows a change of the setting from the next sign-up on, and stops when set back to 0', async () => {
    expect((await settings({ trial_days: 30 })).status).toBe(200);
    const longer = await h.signUp('longer@example.com');
    expect(await vip(longer.access_token)).toMatchObject({ premium: true, surplus_day: 30, free_vip: true, free_days: 30 });
    // null gives the environment's value (0 here) back: trials stop, and an address not yet tried records nothing.
    expect((await settings({ trial_days: null })).body.settings.trial_days).toBe(0);
    const after = await h.signUp('after@example.com');
    expect(await vip(after.access_token)).toMatchObject({ premium: false, grants: [] });
    expect(await trialRows()).toHaveLength(5);
  });
});

describe("premium trial on a sign-in provider's first sign-in", () => {
  const REDIRECT = 'http://haul.test/drive/login/callback';
  let idp: TestOidcProvider;
  let h: TestHaul;
  beforeAll(async () => {
    idp = await startOidcProvider({ accounts: { zoe: { password: 'pw-zoe', email: 'zoe@idp.example', email_verified: true, name: 'Zoe' } }, redirectUris: [REDIRECT] });
    h = await startTestHaul({ trialDays: 10, oidcProviders: [{ id: 'idp', name: 'Test ID', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: ['openid', 'email'] }] });
  }, 60_000);
  afterAll(async () => {
    await h?.destroy();
    await idp?.stop();
  });

  it('makes the account with the trial, once: signing in again grants nothing more', async () => {
    const signIn = async () => {
      const state = 'trial-state-' + Math.random().toString(36).slice(2);
      const uri = (await h.api('POST', '/v1/auth/provider/uri', undefined, { provider_id: 'idp', provider_redirect_uri: REDIRECT, state })).body.uri as string;
      const back = await authorizeAtProvider(uri, 'zoe', 'pw-zoe', REDIRECT);
      const token = (await h.api('POST', '/v1/auth/provider/token', undefined, { provider_code: back.searchParams.get('code'), provider_id: 'idp', provider_redirect_uri: REDIRECT, state })).body.provider_token;
      const res = await h.api('POST', '/v1/auth/signin/with/provider', undefined, { provider_token: token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as TokenResponse;
    };
    const first = await signIn();
    const vip = (await h.api('GET', '/vip/v1/vip/info', first.access_token)).body;
    expect(vip).toMatchObject({ premium: true, surplus_day: 10, free_vip: true, free_days: 10 });
    const again = await signIn();
    expect(again.sub).toBe(first.sub);
    expect((await h.api('GET', '/vip/v1/vip/info', again.access_token)).body.grants).toHaveLength(1);
  });
});
