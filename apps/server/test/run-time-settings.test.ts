/**
 * Run-time settings from the console: only an operator reads or changes them; a change holds at once, in this
 * process and in another one on the same database (registration closed, by invitation, the new account's storage,
 * the free plan's daily cloud downloads), is recorded with its actor, and null gives the environment's value back.
 * Bad values change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { buildHaul, type Haul } from '../src/app.js';
import { createUser } from '../src/accounts/accounts.service.js';
import { passwordlessHash } from '../src/providers/passwordless.js';
import { startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';
const GiB = 1024 ** 3;

describe('run-time settings', () => {
  let h: TestHaul;
  let other: Haul;
  let admin: TokenResponse;
  let person: TokenResponse;
  const settings = (body: unknown) => h.api('PATCH', '/admin/v1/settings', admin.access_token, body);
  /** A sign-up through the second process, which reads the same database. */
  const signUpThere = (email: string, extra: Record<string, string> = {}) =>
    other.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PW, ...extra } });

  beforeAll(async () => {
    h = await startTestHaul({ registration: 'open', defaultQuotaBytes: 10 * GiB, dailyTaskLimit: 50 });
    other = await buildHaul({ ...h.ctx.config }, { logger: false });
    await createUser(h.ctx, { email: 'keeper@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'keeper@example.com', password: PW })).body as TokenResponse;
    person = await h.signUp('person@example.com', PW);
  });
  afterAll(async () => {
    await other?.app.close();
    await h.destroy();
  });

  it("refuses a person's token and no token, and changes nothing", async () => {
    for (const [method, body] of [['GET', undefined], ['PATCH', { registration: 'closed' }]] as const) {
      const asPerson = await h.api(method, '/admin/v1/settings', person.access_token, body);
      expect([asPerson.status, asPerson.body.error]).toEqual([403, 'permission_denied']);
      const anonymous = await h.api(method, '/admin/v1/settings', undefined, body);
      expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthenticated']);
    }
    expect((await h.api('GET', '/admin/v1/settings', admin.access_token)).body.settings.registration).toBe('open');
  });

  it("answers each setting, the environment's values and none changed on a fresh install", async () => {
    const got = await h.api('GET', '/admin/v1/settings', admin.access_token);
    expect(got.status).toBe(200);
    expect(got.body.changed).toEqual([]);
    expect(got.body.settings).toEqual(got.body.defaults);
    expect(got.body.settings).toMatchObject({ registration: 'open', default_storage_bytes: 10 * GiB, free_daily_cloud_downloads: 50 });
  });

  it('refuses unknown settings and values out of range, changing nothing', async () => {
    for (const bad of [{ site_name: '' }, { site_name: ' padded ' }, { site_name: 'x'.repeat(61) }, { registration: 'sometimes' }, { trash_retention_days: 0 }, { default_storage_bytes: -1 }, { colour: 'red' }, {}]) {
      const res = await settings(bad);
      expect([res.status, res.body.error], JSON.stringify(bad)).toEqual([400, 'invalid_argument']);
    }
    expect((await h.api('GET', '/admin/v1/settings', admin.access_token)).body.changed).toEqual([]);
  });

  it('closes registration for the other process at once, and opens it again with null', async () => {
    expect((await signUpThere('early@example.com')).statusCode).toBe(200);
    const closed = await settings({ registration: 'closed' });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ settings: { registration: 'closed' }, defaults: { registration: 'open' }, changed: ['registration'] });
    const refused = await signUpThere('late@example.com');
    expect([refused.statusCode, refused.json().error, refused.json().error_description]).toEqual([403, 'permission_denied', 'Registration is closed on this server.']);
    // The other process's own view of the providers' sign-up follows too.
    expect((await other.app.inject({ method: 'GET', url: '/v1/auth/providers' })).json().sign_up).toBe(false);

    const reopened = await settings({ registration: null });
    expect(reopened.body.changed).toEqual([]);
    expect((await signUpThere('later@example.com')).statusCode).toBe(200);
  });

  it("names the install for every visitor of either process, and gives the default back with null", async () => {
    const site = async (app: Haul['app']) => JSON.parse((await app.inject({ method: 'GET', url: '/v1/site' })).body).name;
    expect([await site(h.app), await site(other.app)]).toEqual(['Haul', 'Haul']);
    expect((await settings({ site_name: 'Family drive' })).status).toBe(200);
    expect([await site(h.app), await site(other.app)]).toEqual(['Family drive', 'Family drive']);
    expect((await settings({ site_name: null })).body.settings.site_name).toBe('Haul');
    expect(await site(other.app)).toBe('Haul');
  });

  it('asks accounts without a password to set one, in either process, once required', async () => {
    const without = await h.signUp('nopassword@example.com', PW);
    await h.ctx.db.updateTable('users').set({ password_hash: await passwordlessHash() }).where('id', '=', without.sub).execute();
    const flag = async (app: Haul['app'], token: string) =>
      JSON.parse((await app.inject({ method: 'GET', url: '/v1/user/me', headers: { authorization: `Bearer ${token}` } })).body).required_set_password;
    expect([await flag(h.app, without.access_token), await flag(other.app, without.access_token)]).toEqual([false, false]);
    expect((await settings({ require_password: true })).status).toBe(200);
    expect([await flag(h.app, without.access_token), await flag(other.app, without.access_token)]).toEqual([true, true]);
    // An account with a password is never asked.
    expect(await flag(other.app, person.access_token)).toBe(false);
    expect((await settings({ require_password: null })).body.settings.require_password).toBe(false);
    expect(await flag(other.app, without.access_token)).toBe(false);
  });

  it('takes new accounts by invitation only: none without a code, one with a real code', async () => {
    await settings({ registration: 'invite' });
    const none = await signUpThere('uninvited@example.com');
    expect([none.statusCode, none.json().error]).toEqual([403, 'permission_denied']);
    expect(none.json().error_description).toContain('invitation');
    const forged = await signUpThere('forged@example.com', { invitation_code: 'ZZZZ-ZZZZ' });
    expect(forged.statusCode).toBe(403);
    const code = (await h.api('POST', '/vip/v1/activity/invite', person.access_token, { from: 'web', tf: '', rf: '' })).body.invitation_code as string;
    expect((await signUpThere('invited@example.com', { invitation_code: code })).statusCode).toBe(200);
    await settings({ registration: null });
  });

  it("gives new accounts the new storage and free accounts the new daily limit, and records who changed what", async () => {
    await settings({ default_storage_bytes: 2 * GiB, free_daily_cloud_downloads: 1 });
    const joined = await signUpThere('roomy@example.com');
    const about = await other.app.inject({ method: 'GET', url: '/drive/v1/about', headers: { authorization: `Bearer ${joined.json().access_token}` } });
    expect(about.json().quota.limit).toBe(String(2 * GiB));

    const add = (url: string) =>
      h.api('POST', '/drive/v1/files', person.access_token, { kind: 'drive#file', upload_type: 'UPLOAD_TYPE_URL', url: { url }, parent_id: '' });
    expect((await add('https://example.com/one.iso')).status).toBe(200);
    const second = await add('https://example.com/two.iso');
    expect([second.status, second.body.error]).toEqual([403, 'task_daily_create_limit']);

    const log = await h.api('GET', '/admin/v1/audit?action=admin.settings.changed', admin.access_token);
    const change = log.body.events.find((e: { details: Record<string, unknown> }) => 'default_storage_bytes' in e.details);
    expect(change).toMatchObject({ actor_id: admin.sub, user_email: 'keeper@example.com', details: { default_storage_bytes: { from: 10 * GiB, to: 2 * GiB }, free_daily_cloud_downloads: { from: 50, to: 1 } } });
    await settings({ default_storage_bytes: null, free_daily_cloud_downloads: null });
    expect((await h.api('GET', '/admin/v1/settings', admin.access_token)).body.changed).toEqual([]);
  });
});
