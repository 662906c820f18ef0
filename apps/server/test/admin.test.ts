/**
 * The operator's console: only an operator's own session reaches it (every admin route refuses a person's token and
 * no token, changing nothing); operators list, search and change accounts, each change in the audit log; and every
 * account sees its own security events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT, fillPath, type TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { purgeAudit } from '../src/audit/audit.repository.js';
import { startTestHaul, sudoToken, type TestHaul } from './helper.js';

const PW = 'correct horse';
const ADMIN_ROUTES = Object.entries(CONTRACT).filter(([, d]) => d.auth === 'admin');

describe('operator console', () => {
  let h: TestHaul;
  let admin: TokenResponse;
  let person: TokenResponse;
  const signIn = async (email: string) => (await h.api('POST', '/v1/auth/signin', undefined, { username: email, password: PW })).body as TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul();
    await createUser(h.ctx, { email: 'operator@example.com', password: PW, isAdmin: true });
    admin = await signIn('operator@example.com');
    person = await h.signUp('person@example.com', PW);
  });
  afterAll(() => h.destroy());

  it('refuses every admin route to a person and to no token, and changes nothing', async () => {
    expect(ADMIN_ROUTES.length).toBeGreaterThanOrEqual(5);
    const users = async () => h.ctx.db.selectFrom('users').selectAll().orderBy('id').execute();
    const before = await users();
    for (const [name, d] of ADMIN_ROUTES) {
      const url = fillPath(d.path, { id: person.sub });
      const body = d.method === 'PATCH' ? { disabled: true, is_admin: true, storage_limit: '1' } : undefined;
      const asPerson = await h.api(d.method, url, person.access_token, body);
      expect([asPerson.status, asPerson.body.error], name).toEqual([403, 'permission_denied']);
      const anonymous = await h.api(d.method, url, undefined, body);
      expect([anonymous.status, anonymous.body.error], name).toEqual([401, 'unauthenticated']);
    }
    expect(await users()).toEqual(before);
    expect(await h.ctx.db.selectFrom('audit_events').selectAll().where('action', 'like', 'admin.%').execute()).toEqual([]);
  });

  it('lists accounts newest first and by address prefix, page by page, with what each uses', async () => {
    for (let i = 0; i < 5; i++) await h.signUp(`club${i}@example.com`, PW);
    await h.putFile(person, '', 'a.txt', 'twelve bytes');
    const all: { email: string; created_time: string }[] = [];
    let token = '';
    do {
      const page = await h.api('GET', `/admin/v1/users?limit=3${token ? `&page_token=${token}` : ''}`, admin.access_token);
      expect(page.status).toBe(200);
      all.push(...page.body.users);
      token = page.body.next_page_token;
    } while (token);
    expect(new Set(all.map((u) => u.email)).size).toBe(7);
    const times = all.map((u) => Date.parse(u.created_time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const found: string[] = [];
    token = '';
    do {
      const page = await h.api('GET', `/admin/v1/users?q=CLUB&limit=2${token ? `&page_token=${token}` : ''}`, admin.access_token);
      found.push(...page.body.users.map((u: { email: string }) => u.email));
      token = page.body.next_page_token;
    } while (token);
    expect(found).toEqual(['club0@example.com', 'club1@example.com', 'club2@example.com', 'club3@example.com', 'club4@example.com']);
    const detail = await h.api('GET', `/admin/v1/users/${person.sub}`, admin.access_token);
    expect(detail.body.user).toMatchObject({ email: 'person@example.com', is_admin: false, disabled: false, storage_usage: '12' });
    expect(detail.body.usage).toMatchObject({ files: '1', shares: '0', tasks_running: '0' });
    expect((await h.api('GET', '/admin/v1/users/nobody', admin.access_token)).status).toBe(404);
  });

  it("changes an account at once, records who changed what, and the person sees it in their own log", async () => {
    const raised = await h.api('PATCH', `/admin/v1/users/${person.sub}`, admin.access_token, { storage_limit: String(50 * 1024 ** 3) });
    expect(raised.body.storage_limit).toBe(String(50 * 1024 ** 3));
    const about = await h.api('GET', '/drive/v1/about', person.access_token);
    expect(about.body.quota.limit).toBe(String(50 * 1024 ** 3));

    const own = await h.api('GET', '/v1/user/audit', person.access_token);
    expect(own.body.events[0]).toMatchObject({ action: 'admin.user.updated', user_email: 'person@example.com', actor_email: 'operator@example.com', details: { storage_limit: { to: String(50 * 1024 ** 3) } } });

    // Disabling ends the person's tokens at once; the operator cannot disable or demote themselves.
    expect((await h.api('PATCH', `/admin/v1/users/${person.sub}`, admin.access_token, { disabled: true })).body.disabled).toBe(true);
    expect((await h.api('GET', '/v1/user/me', person.access_token)).status).toBe(401);
    expect((await h.api('PATCH', `/admin/v1/users/${admin.sub}`, admin.access_token, { disabled: true })).status).toBe(400);
    expect((await h.api('PATCH', `/admin/v1/users/${admin.sub}`, admin.access_token, { is_admin: false })).status).toBe(400);
    expect((await h.api('PATCH', `/admin/v1/users/${person.sub}`, admin.access_token, {})).status).toBe(400);
    expect((await h.api('PATCH', `/admin/v1/users/${person.sub}`, admin.access_token, { storage_limit: '-5' })).status).toBe(400);
    await h.api('PATCH', `/admin/v1/users/${person.sub}`, admin.access_token, { disabled: false });

    const log = await h.api('GET', `/admin/v1/audit?user_id=${person.sub}&action=admin.user.updated`, admin.access_token);
    expect(log.body.events.map((e: { details: object }) => Object.keys(e.details))).toEqual([['disabled'], ['disabled'], ['storage_limit']]);
    expect(log.body.events.every((e: { actor_id: string }) => e.actor_id === admin.sub)).toBe(true);
  });

  it('signs an account out everywhere, and a demoted operator loses the console at once', async () => {
    const again = await signIn('person@example.com');
    expect((await h.api('DELETE', `/admin/v1/users/${person.sub}/sessions`, admin.access_token)).status).toBe(200);
    expect((await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: again.refresh_token })).status).toBe(401);
    await createUser(h.ctx, { email: 'second@example.com', password: PW, isAdmin: true });
    const second = await signIn('second@example.com');
    expect((await h.api('GET', '/admin/v1/users', second.access_token)).status).toBe(200);
    await h.api('PATCH', `/admin/v1/users/${second.sub}`, admin.access_token, { is_admin: false });
    expect((await h.api('GET', '/admin/v1/users', second.access_token)).status).toBe(403);
  });

  it("records an account's security events, never a secret, and forgets them after the retention", async () => {
    const me = await h.signUp('careful@example.com', PW);
    const sudo = await sudoToken(h, me.access_token);
    expect((await h.api('POST', '/v1/user/password', me.access_token, { sudo_token: sudo, new_password: 'battery staple' })).status).toBe(200);
    const sudo2 = await sudoToken(h, me.access_token, 'battery staple');
    expect((await h.api('POST', '/v1/user/app_passwords', me.access_token, { name: 'laptop', sudo_token: sudo2 })).status).toBe(200);
    const own = (await h.api('GET', '/v1/user/audit', me.access_token)).body.events as { action: string; details: object; ip: string }[];
    expect(own.map((e) => e.action)).toEqual(['app_password.created', 'password.changed']);
    const stored = JSON.stringify(await h.ctx.db.selectFrom('audit_events').selectAll().execute());
    expect(stored).not.toContain('battery staple');
    expect(stored).not.toContain(sudo);
    // A sign-in from a network the account has no session from is recorded; one from a known network is not.
    const fromElsewhere = await h.app.inject({ method: 'POST', url: '/v1/auth/signin', remoteAddress: '203.0.113.9', payload: { username: 'careful@example.com', password: 'battery staple' } });
    expect(fromElsewhere.statusCode).toBe(200);
    await h.api('POST', '/v1/auth/signin', undefined, { username: 'careful@example.com', password: 'battery staple' });
    const after = (await h.api('GET', '/v1/user/audit', me.access_token)).body.events as { action: string; ip: string }[];
    expect(after.filter((e) => e.action === 'sign_in.new_network').map((e) => e.ip)).toEqual(['203.0.113.9']);

    expect(await purgeAudit(h.ctx.db, h.ctx.clock.now() + 1)).toBeGreaterThan(0);
    expect((await h.api('GET', '/v1/user/audit', me.access_token)).body.events).toEqual([]);
  });
});
