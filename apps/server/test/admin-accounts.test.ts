/**
 * The operator's account work: making an account (sign-up's rules, whatever the registration setting), mailing its
 * owner a password-reset code, granting a plan and deleting an account; each refused to a person and to no token
 * (changing nothing), and each in the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { deleteAccount } from '../src/admin/admin-accounts.service.js';
import { codeIn } from './mail-inbox.js';
import { startConsoleFixture, type ConsoleFixture, type TestHaul } from './helper.js';

const PW = 'correct horse';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('operator account work', () => {
  let f: ConsoleFixture;
  let h: TestHaul;
  let admin: TokenResponse;
  let person: TokenResponse;
  const signIn = (email: string, password = PW) => f.signIn(email, password);
  const audit = (action: string) => h.ctx.db.selectFrom('audit_events').selectAll().where('action', '=', action).execute();
  beforeAll(async () => {
    // Sign-up closed: an operator still makes accounts.
    f = await startConsoleFixture({ registration: 'closed' }, PW);
    ({ h, admin, person } = f);
  });
  afterAll(() => h.destroy());

  it('refuses each route to a person and to no token, changing nothing', async () => {
    const snapshot = async () => ({
      users: await h.ctx.db.selectFrom('users').selectAll().orderBy('id').execute(),
      grants: await h.ctx.db.selectFrom('plan_grants').selectAll().execute(),
      mail: await h.ctx.db.selectFrom('mail_outbox').selectAll().execute(),
      audit: await h.ctx.db.selectFrom('audit_events').selectAll().execute(),
    });
    await f.refusedToPeople(
      [
        ['POST', '/admin/v1/users', { email: 'sneak@example.com', password: 'long enough pw', is_admin: true }],
        ['POST', `/admin/v1/users/${person.sub}/password-reset`, undefined],
        ['GET', `/admin/v1/users/${person.sub}/grants`, undefined],
        ['POST', `/admin/v1/users/${person.sub}/grants`, { grant: 'premium:3650d' }],
        ['DELETE', `/admin/v1/users/${admin.sub}`, undefined],
      ],
      snapshot,
    );
  });

  it('creates an account by the sign-up rules, which then signs in', async () => {
    const made = await h.api('POST', '/admin/v1/users', admin.access_token, { email: ' New@Example.com ', password: 'a fine password', name: 'Newt' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ email: 'new@example.com', name: 'Newt', is_admin: false, disabled: false, storage_usage: '0' });
    const signed = await signIn('new@example.com', 'a fine password');
    expect(signed.status).toBe(200);
    expect(signed.body.sub).toBe(made.body.id);

    const twice = await h.api('POST', '/admin/v1/users', admin.access_token, { email: 'new@example.com', password: 'another password' });
    expect([twice.status, twice.body.error]).toEqual([409, 'already_exists']);
    const short = await h.api('POST', '/admin/v1/users', admin.access_token, { email: 'short@example.com', password: 'short' });
    expect([short.status, short.body.error]).toEqual([400, 'invalid_argument']);
    expect(short.body.error_description).toMatch(/at least 8 characters/);
    const bad = await h.api('POST', '/admin/v1/users', admin.access_token, { email: 'not an address', password: 'a fine password' });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_argument']);
    expect(await h.ctx.db.selectFrom('users').select('email').where('email', 'in', ['short@example.com', 'not an address']).execute()).toEqual([]);

    const op = await h.api('POST', '/admin/v1/users', admin.access_token, { email: 'op2@example.com', password: 'a fine password', is_admin: true });
    expect(op.body.is_admin).toBe(true);

    const events = await audit('admin.user.created');
    expect(events.map((e) => [e.subject_id, e.actor_id, JSON.parse(e.details)])).toEqual([
      [made.body.id, admin.sub, { email: 'new@example.com', is_admin: false }],
      [op.body.id, admin.sub, { email: 'op2@example.com', is_admin: true }],
    ]);
  });

  it("mails a reset code the person resets with; refuses a disabled account", async () => {
    const sent = await h.api('POST', `/admin/v1/users/${person.sub}/password-reset`, admin.access_token);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ email: 'person@example.com' });
    // The message leaves in the background, as "Forgot password"'s does.
    let rows = await h.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'person@example.com').execute();
    for (let i = 0; i < 100 && !rows.length; i++, await sleep(50)) rows = await h.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'person@example.com').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.subject).toBe('Reset your Haul password');
    const code = codeIn({ text: rows[0]!.text_body });
    // The mail links to the reset page with the code's id (never the code), at the console's own address.
    const link = new URL(/^http\S+forget-password\S+$/m.exec(rows[0]!.text_body)![0]);
    expect(link.pathname).toBe('/drive/forget-password');
    expect(link.searchParams.get('address')).toBe('person@example.com');
    expect(rows[0]!.html_body).toContain(`<a href="${link.href.replace(/&/g, '&amp;')}">`);
    expect(link.href).not.toContain(code);
    const v = await h.ctx.db.selectFrom('verifications').select('id').where('email', '=', 'person@example.com').where('usage', '=', 'PASSWORD_RESET').executeTakeFirstOrThrow();
    expect(link.searchParams.get('reset')).toBe(v.id);
    const checked = await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: link.searchParams.get('reset'), verification_code: code });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    const reset = await h.api('POST', '/v1/auth/reset', undefined, { verification_token: checked.body.verification_token, new_password: 'a new password', email: 'person@example.com' });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect((await signIn('person@example.com', 'a new password')).status).toBe(200);
    expect((await signIn('person@example.com', PW)).status).toBe(400);

    const events = await audit('admin.user.password_reset_sent');
    expect(events.map((e) => [e.subject_id, e.actor_id, JSON.parse(e.details)])).toEqual([[person.sub, admin.sub, { email: 'person@example.com' }]]);
    // Nothing secret in the log.
    expect(JSON.stringify(await h.ctx.db.selectFrom('audit_events').selectAll().execute())).not.toContain(code);

    const off = await createUser(h.ctx, { email: 'off@example.com', password: PW });
    await h.ctx.db.updateTable('users').set({ disabled_at: Date.now() }).where('id', '=', off.id).execute();
    const refused = await h.api('POST', `/admin/v1/users/${off.id}/password-reset`, admin.access_token);
    expect([refused.status, refused.body.error]).toEqual([409, 'failed_precondition']);
    expect(refused.body.error_description).toMatch(/disabled/);
    await sleep(100);
    expect(await h.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'off@example.com').execute()).toEqual([]);
    expect((await h.api('POST', '/admin/v1/users/nobody/password-reset', admin.access_token)).status).toBe(404);
    expect(await audit('admin.user.password_reset_sent')).toHaveLength(1);
  });

  it('grants a plan: premium ends later, the storage limit grows; a bad spec is refused', async () => {
    const about = async () => (await h.api('GET', '/drive/v1/about', person.access_token)).body;
    person = (await signIn('person@example.com', 'a new password')).body;
    const limitBefore = Number((await about()).quota.limit);
    const premium = await h.api('POST', `/admin/v1/users/${person.sub}/grants`, admin.access_token, { grant: 'premium:30d' });
    expect(premium.status, JSON.stringify(premium.body)).toBe(200);
    expect(premium.body.premium).toBe(true);
    const firstEnd = Date.parse(premium.body.expire);
    expect(firstEnd - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const more = await h.api('POST', `/admin/v1/users/${person.sub}/grants`, admin.access_token, { grant: 'premium:10d, storage:100GB' });
    expect(Date.parse(more.body.expire) - firstEnd).toBe(10 * 86_400_000);
    expect(more.body.grants.map((g: { kind: string; source: string }) => [g.kind, g.source]).sort()).toEqual([['premium', 'admin'], ['premium', 'admin'], ['storage', 'admin']]);
    expect(Number((await about()).quota.limit)).toBe(limitBefore + 100 * 2 ** 30);
    const listed = await h.api('GET', `/admin/v1/users/${person.sub}/grants`, admin.access_token);
    expect(listed.body.grants).toEqual(more.body.grants);
    expect((await h.api('GET', `/admin/v1/users/${person.sub}`, admin.access_token)).body.user.premium_expire_time).not.toBe('');

    for (const grant of ['premium:30', 'gold:1d', 'storage:lots']) {
      const bad = await h.api('POST', `/admin/v1/users/${person.sub}/grants`, admin.access_token, { grant });
      expect([bad.status, bad.body.error], grant).toEqual([400, 'invalid_argument']);
    }
    expect((await h.api('POST', '/admin/v1/users/nobody/grants', admin.access_token, { grant: 'premium:1d' })).status).toBe(404);
    expect(await h.ctx.db.selectFrom('plan_grants').selectAll().where('user_id', '=', person.sub).execute()).toHaveLength(3);
    const events = await audit('admin.user.granted');
    expect(events.map((e) => JSON.parse(e.details))).toEqual([{ grant: 'premium:30d' }, { grant: 'premium:10d,storage:100GB' }]);
  });

  it('deletes an account: it cannot sign in, its files go, the event stays; not self, not the last operator', async () => {
    const doomed = await createUser(h.ctx, { email: 'doomed@example.com', password: PW });
    const tok = (await signIn('doomed@example.com')).body as TokenResponse;
    await h.putFile(tok, '', 'notes.txt', 'some bytes of doomed');
    const gone = await h.api('DELETE', `/admin/v1/users/${doomed.id}`, admin.access_token);
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect((await signIn('doomed@example.com')).body.error).toBe('invalid_grant');
    expect((await h.api('GET', '/drive/v1/about', tok.access_token)).status).toBe(401);
    await h.erasure.idle();
    expect(await h.ctx.db.selectFrom('files').select('id').where('user_id', '=', doomed.id).execute()).toEqual([]);
    expect(await h.ctx.db.selectFrom('users').select('id').where('id', '=', doomed.id).execute()).toEqual([]);
    expect((await h.api('GET', `/admin/v1/users/${doomed.id}`, admin.access_token)).status).toBe(404);
    // The operator's record of it outlives the erasure of the account's own log.
    const events = await audit('admin.user.deleted');
    expect(events.map((e) => [e.subject_id, e.actor_id, JSON.parse(e.details)])).toEqual([[doomed.id, admin.sub, { email: 'doomed@example.com' }]]);
    const shown = await h.api('GET', `/admin/v1/audit?action=admin.user.deleted`, admin.access_token);
    expect(shown.body.events[0]).toMatchObject({ user_id: doomed.id, actor_email: 'operator@example.com', details: { email: 'doomed@example.com' } });
    // The address is free again: an operator may make it anew.
    expect((await h.api('POST', '/admin/v1/users', admin.access_token, { email: 'doomed@example.com', password: 'a fine password' })).status).toBe(200);

    const self = await h.api('DELETE', `/admin/v1/users/${admin.sub}`, admin.access_token);
    expect([self.status, self.body.error]).toEqual([400, 'invalid_argument']);
    expect((await signIn('operator@example.com')).status).toBe(200);

    // The last enabled operator: the other operators disabled, the server itself (no account) is refused too.
    await h.ctx.db.updateTable('users').set({ disabled_at: Date.now() }).where('is_admin', '=', 1).where('id', '!=', admin.sub).execute();
    const last = deleteAccount(h.ctx, { id: '', ip: '' }, admin.sub, () => undefined);
    await expect(last).rejects.toMatchObject({ status: 409, error: 'failed_precondition' });
    expect((await signIn('operator@example.com')).status).toBe(200);
    expect(await audit('admin.user.deleted')).toHaveLength(1);
  });
});
