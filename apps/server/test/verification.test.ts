/**
 * Mailed codes, end to end: a real SMTP server in this process receives what Haul sends (nodemailer), the code is read
 * out of the parsed mail, and spent on a password reset, a sudo token, a verified sign-up. The mail settings, a mail
 * server that is down, and the outbox without SMTP: mail-delivery.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { buildHaul } from '../src/app.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';
import { MailInbox, codeIn } from './mail-inbox.js';

const PW = 'correct horse';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('verification codes by mail', () => {
  const inbox = new MailInbox();
  const clock = new ManualClock();
  let h: TestHaul;
  let people = 0;
  let nets = 0;
  beforeAll(async () => {
    await inbox.start();
    h = await startTestHaul({ smtpUrl: inbox.url, mailFrom: 'Haul Test <haul@haul.test>' }, clock);
  });
  afterAll(async () => {
    await h?.destroy();
    await inbox.stop();
  });

  type Opts = { token?: string; headers?: Record<string, string>; ip?: string };
  const call = async (method: 'GET' | 'POST', url: string, body?: object, o: Opts = {}) => {
    const headers = { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers };
    const res = await h.app.inject({ method, url, payload: body, headers, remoteAddress: o.ip ?? '127.0.0.1' });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
  };
  const signIn = (email: string, password = PW) => call('POST', '/v1/auth/signin', { username: email, password });
  const me = async (token: string) => (await call('GET', '/v1/user/me', undefined, { token })).status;
  /** An account made as an operator would (sign-up wants a code here), signed in once. */
  const account = async (name = 'Someone') => {
    const email = `person${++people}@example.com`;
    await createUser(h.ctx, { email, password: PW, name });
    return { email, ...((await signIn(email)).body as TokenResponse) };
  };
  /** Each request for a code comes from a network of its own, so the per-network send limit stays out of the way. */
  const ask = (body: object, o: Opts = {}) => call('POST', '/v1/auth/verification', body, { ip: `198.51.100.${++nets}`, ...o });
  const verify = (id: string, code: string) => call('POST', '/v1/auth/verification/verify', { verification_id: id, verification_code: code });
  /** Asks for a code and reads it out of the mail that arrives. */
  const codeFor = async (email: string, body: object, o: Opts = {}) => {
    const before = inbox.to(email).length;
    const res = await ask(body, o);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mail = await inbox.nth(email, before + 1);
    return { id: res.body.verification_id as string, code: codeIn(mail), mail };
  };
  const tokenFor = async (email: string, body: object, o: Opts = {}) => {
    const { id, code } = await codeFor(email, body, o);
    const v = await verify(id, code);
    expect(v.status).toBe(200);
    return v.body.verification_token as string;
  };
  const reset = (verification_token: string, new_password: string, email?: string) => call('POST', '/v1/auth/reset', { verification_token, new_password, email });

  it('resets a forgotten password with the mailed code and signs in; the old password and sessions end', async () => {
    const ann = await account('Ann');
    const laptop = (await signIn(ann.email)).body as TokenResponse;
    const { id, code, mail } = await codeFor(ann.email, { usage: 'PASSWORD_RESET', email: ann.email.toUpperCase() });
    expect(mail.subject).toBe('Reset your Haul password');
    expect(mail.from).toContain('haul@haul.test');
    expect(mail.text).toContain('Hello Ann,');
    // Kept as a keyed hash: the code is nowhere in the database.
    const rows = await h.ctx.db.selectFrom('verifications').selectAll().where('id', '=', id).execute();
    expect(rows[0]).toMatchObject({ usage: 'PASSWORD_RESET', email: ann.email, user_id: ann.sub });
    expect(JSON.stringify(rows)).not.toContain(code);

    const v = await verify(id, code);
    expect(v.body).toMatchObject({ expires_in: 600 });
    const done = await reset(v.body.verification_token, 'a brand new password', ann.email);
    expect(done.status).toBe(200);
    expect(done.body.sub).toBe(ann.sub);
    expect(await me(done.body.access_token)).toBe(200);
    expect([await me(ann.access_token), await me(laptop.access_token)]).toEqual([401, 401]);
    expect((await signIn(ann.email)).status).toBe(400);
    expect((await signIn(ann.email, 'a brand new password')).status).toBe(200);
  });

  it("links a reset mail to the pinned address's reset page, never to one an anonymous request's Host names", async () => {
    const dee = await account('Dee');
    const forged = { headers: { host: 'evil.example' } };
    const pinned = await codeFor(dee.email, { usage: 'PASSWORD_RESET', email: dee.email }, forged);
    expect(pinned.mail.text).toContain(`http://haul.test/drive/forget-password?reset=${pinned.id}&address=${encodeURIComponent(dee.email)}`);
    expect(pinned.mail.text).not.toContain('evil.example');
    // Unpinned, links follow the address a request came to; a mail to someone else has none rather than a forged one.
    h.ctx.config.publicUrlPinned = false;
    try {
      const { mail } = await codeFor(dee.email, { usage: 'PASSWORD_RESET', email: dee.email }, forged);
      expect(mail.text).not.toContain('evil.example');
      expect(mail.text).not.toContain('forget-password');
      expect(mail.html).not.toContain('<a ');
    } finally {
      h.ctx.config.publicUrlPinned = true;
    }
  });

  it('signs in with a mailed code: an account, a new address made an account, none for a stranger when closed, never twice', async () => {
    const signInBy = (verification_token: string, email: string, extra: object = {}) => call('POST', '/v1/auth/signin/token', { verification_token, email, ...extra });
    const eve = await account('Eve');
    const { id, code, mail } = await codeFor(eve.email, { usage: 'SIGN_IN', email: eve.email });
    expect(mail.subject).toBe('Your Haul sign-in code');
    const token = (await verify(id, code)).body.verification_token as string;
    // Another address with this token: refused, and the token is still good.
    expect((await signInBy(token, 'someone@example.com')).body.error).toBe('invalid_grant');
    const signed = await signInBy(token, eve.email.toUpperCase());
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.sub).toBe(eve.sub);
    expect(await me(signed.body.access_token)).toBe(200);
    expect((await signInBy(token, eve.email)).body.error).toBe('invalid_grant');

    // A new address: REGISTER_SIGN_IN makes its account, without a password; SIGN_IN sends nothing and makes none.
    const fresh = `fresh${++people}@example.com`;
    const stranger = await ask({ usage: 'SIGN_IN', email: fresh });
    expect(stranger.status).toBe(200);
    await sleep(200);
    expect(inbox.to(fresh)).toEqual([]);
    const made = await codeFor(fresh, { usage: 'REGISTER_SIGN_IN', email: fresh });
    const madeIn = await signInBy((await verify(made.id, made.code)).body.verification_token, fresh);
    expect(madeIn.status, JSON.stringify(madeIn.body)).toBe(200);
    const row = await h.ctx.db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', madeIn.body.sub).executeTakeFirstOrThrow();
    expect(row.email).toBe(fresh);
    expect((await call('GET', '/v1/user/provider', undefined, { token: madeIn.body.access_token })).body.has_password).toBe(false);

    // Closed registration: a new address gets the same answer and no mail; an account still gets its code.
    h.ctx.config.registration = 'closed';
    try {
      const closed = `closed${++people}@example.com`;
      expect((await ask({ usage: 'REGISTER_SIGN_IN', email: closed })).status).toBe(200);
      await sleep(200);
      expect(inbox.to(closed)).toEqual([]);
      const again = await codeFor(eve.email, { usage: 'REGISTER_SIGN_IN', email: eve.email });
      expect((await signInBy((await verify(again.id, again.code)).body.verification_token, eve.email)).body.sub).toBe(eve.sub);
    } finally {
      h.ctx.config.registration = 'open';
    }
  });

  it('refuses a wrong code, an expired code, a code used before and a token used before', async () => {
    const bo = await account();
    const first = await codeFor(bo.email, { usage: 'PASSWORD_RESET', email: bo.email });
    const bad = await verify(first.id, wrong(first.code));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/wrong/) });
    const ok = await verify(first.id, first.code);
    expect(ok.status).toBe(200);
    expect((await verify(first.id, first.code)).body.error).toBe('invalid_grant');
    expect((await reset(ok.body.verification_token, 'second password')).status).toBe(200);
    const replay = await reset(ok.body.verification_token, 'third password');
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await signIn(bo.email, 'second password')).status).toBe(200);

    const late = await codeFor(bo.email, { usage: 'PASSWORD_RESET', email: bo.email });
    clock.advance(600_001);
    expect((await verify(late.id, late.code)).body.error).toBe('invalid_grant');

    const slow = await codeFor(bo.email, { usage: 'PASSWORD_RESET', email: bo.email });
    const token = (await verify(slow.id, slow.code)).body.verification_token;
    // For another address than the code went to: refused, and not spent by that.
    expect((await reset(token, 'fourth password', 'someone-else@example.com')).body.error).toBe('invalid_grant');
    clock.advance(600_001);
    expect((await reset(token, 'fourth password')).body.error).toBe('invalid_grant');
    expect((await signIn(bo.email, 'second password')).status).toBe(200);
  });

  it('five wrong codes end a code in every process; the owner asks for a new one and gets in', async () => {
    const cy = await account();
    const first = await codeFor(cy.email, { usage: 'PASSWORD_RESET', email: cy.email });
    const other = await buildHaul(h.ctx.config, { clock, logger: false });
    const guess = (app: typeof h.app, code: string) => app.inject({ method: 'POST', url: '/v1/auth/verification/verify', payload: { verification_id: first.id, verification_code: code } });
    try {
      const apps = [h.app, other.app];
      for (let i = 0; i < 5; i++) expect((await guess(apps[i % 2]!, wrong(first.code))).json().error_description).toMatch(/wrong/);
      for (const app of apps) {
        const res = await guess(app, first.code);
        expect(res.statusCode).toBe(400);
        expect(res.json().error_description).toMatch(/Too many wrong codes/);
      }
    } finally {
      await other.app.close();
      await other.ctx.mailer.close();
      await other.ctx.db.destroy();
    }
    const count = await h.ctx.db.selectFrom('attempt_limits').select('count').where('key', '=', `vcode|${first.id}`).executeTakeFirstOrThrow();
    expect(count.count).toBe(5);
    const again = await codeFor(cy.email, { usage: 'PASSWORD_RESET', email: cy.email });
    const v = await verify(again.id, again.code);
    expect((await reset(v.body.verification_token, 'got back in')).status).toBe(200);
  });

  it('answers a reset for an unknown address exactly like a known one, limits both alike, and mails nothing', async () => {
    const dee = await account();
    const ghost = 'nobody-here@example.com';
    const unknown = await ask({ usage: 'PASSWORD_RESET', email: ghost });
    const known = await ask({ usage: 'PASSWORD_RESET', email: dee.email });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(unknown.body.expires_in).toBe(known.body.expires_in);
    expect(unknown.body.verification_id).toHaveLength(known.body.verification_id.length);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    const code = codeIn(await inbox.nth(dee.email, 1));
    const [a, b] = [await verify(unknown.body.verification_id, '123456'), await verify(known.body.verification_id, wrong(code))];
    expect([a.status, a.body.error_description]).toEqual([b.status, b.body.error_description]);
    // Five more each, then both wait the same.
    const more = async (email: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await ask({ usage: 'PASSWORD_RESET', email })).status);
      return statuses;
    };
    expect(await more(ghost)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await more(dee.email)).toEqual([200, 200, 200, 200, 200, 429]);
    await inbox.nth(dee.email, 6);
    await sleep(200);
    expect(inbox.to(ghost)).toEqual([]);
    expect(await h.ctx.db.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
  });

  it('grants sudo for the password, or for a code mailed to the account itself', async () => {
    const eve = await account('Eve');
    const sudo = (body: object, token = eve.access_token) => call('POST', '/v1/user/sudo', body, { token });
    const byPassword = await sudo({ password: PW });
    expect(byPassword.status).toBe(200);
    expect(byPassword.body.expires_in).toBe(300);
    expect((await sudo({ password: 'not my password' })).body.error).toBe('invalid_grant');
    expect((await sudo({})).body.error).toBe('invalid_argument');

    // The code goes to the signed-in account's own address: no address in the request, and no code signed out.
    expect((await ask({ usage: 'DEFAULT' })).status).toBe(401);
    const { id, code, mail } = await codeFor(eve.email, { usage: 'DEFAULT', email: 'elsewhere@example.com' }, { token: eve.access_token });
    expect(mail.subject).toBe('Your Haul verification code');
    expect(inbox.to('elsewhere@example.com')).toEqual([]);
    const token = (await verify(id, code)).body.verification_token;
    expect((await sudo({ verification_token: token })).status).toBe(200);
    expect((await sudo({ verification_token: token })).body.error).toBe('invalid_grant');

    // Another account cannot use Eve's token, and does not spend it by trying.
    const fay = await account();
    const second = await tokenFor(eve.email, { usage: 'DELETION' }, { token: eve.access_token });
    expect((await sudo({ verification_token: second }, fay.access_token)).body.error).toBe('invalid_grant');
    expect((await sudo({ verification_token: second })).status).toBe(200);
    // A reset token is not a sudo proof.
    const resetToken = await tokenFor(eve.email, { usage: 'PASSWORD_RESET', email: eve.email });
    expect((await sudo({ verification_token: resetToken })).body.error).toBe('invalid_grant');
  });

  it('refuses a sudo token that expired, or that comes from another account or session', async () => {
    const gus = await account();
    const elsewhere = (await signIn(gus.email)).body as TokenResponse;
    const hal = await account();
    const sudo = (await call('POST', '/v1/user/sudo', { password: PW }, { token: gus.access_token })).body.sudo_token as string;
    const setPw = (token: string, sudo_token: string) => call('POST', '/v1/user/password', { sudo_token, new_password: 'brand new password' }, { token });
    expect((await setPw(hal.access_token, sudo)).body.error).toBe('invalid_grant');
    expect((await setPw(elsewhere.access_token, sudo)).body.error).toBe('invalid_grant');
    // An access token is no sudo token, nor the other way round.
    expect((await setPw(gus.access_token, gus.access_token)).body.error).toBe('invalid_grant');
    expect(await me(sudo)).toBe(401);
    clock.advance(301_000);
    expect((await setPw(gus.access_token, sudo)).body.error).toBe('invalid_grant');
    expect((await signIn(gus.email)).status).toBe(200);
  });

  it('sets a new password with a sudo token: the other sessions end, this one stays signed in', async () => {
    const ivy = await account();
    const phone = (await signIn(ivy.email)).body as TokenResponse;
    const sudo = (await call('POST', '/v1/user/sudo', { password: PW }, { token: ivy.access_token })).body.sudo_token as string;
    const short = await call('POST', '/v1/user/password', { sudo_token: sudo, new_password: 'short' }, { token: ivy.access_token });
    expect(short.body).toMatchObject({ error: 'invalid_argument', error_description: expect.stringMatching(/at least 8/) });
    const set = await call('POST', '/v1/user/password', { sudo_token: sudo, new_password: 'a fresh password' }, { token: ivy.access_token });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({});
    expect(await me(ivy.access_token)).toBe(200);
    // The confirmation was for that one change: spent on it, it cannot change the password again.
    const again = await call('POST', '/v1/user/password', { sudo_token: sudo, new_password: 'yet another password' }, { token: ivy.access_token });
    expect(again.body.error).toBe('invalid_grant');
    expect((await call('POST', '/v1/auth/token', { grant_type: 'refresh_token', refresh_token: ivy.refresh_token })).status).toBe(200);
    expect(await me(phone.access_token)).toBe(401);
    expect((await call('POST', '/v1/auth/token', { grant_type: 'refresh_token', refresh_token: phone.refresh_token })).status).toBe(401);
    expect((await signIn(ivy.email)).status).toBe(400);
    expect((await signIn(ivy.email, 'a fresh password')).status).toBe(200);
  });

  it('asks for a verified address at sign-up when mail can be sent', async () => {
    const email = 'newcomer@example.com';
    const signUp = (body: object) => call('POST', '/v1/auth/signup', { email, password: PW, ...body });
    const none = await signUp({});
    expect(none.body).toMatchObject({ error: 'invalid_argument', error_description: expect.stringMatching(/confirm your e-mail address/) });
    const token = await tokenFor(email, { usage: 'REGISTER', email });
    expect(inbox.to(email)[0]!.subject).toBe('Confirm your e-mail address for Haul');
    expect((await signUp({ email: 'someone-else@example.com', verification_token: token })).body.error).toBe('invalid_grant');
    expect((await signUp({ verification_token: 'forged' })).body.error).toBe('invalid_grant');
    // A refused password does not cost the code.
    expect((await signUp({ password: 'short', verification_token: token })).body.error).toBe('invalid_argument');
    const up = await signUp({ verification_token: token });
    expect(up.status).toBe(200);
    expect(await me(up.body.access_token)).toBe(200);
    expect((await signUp({ email: 'second@example.com', verification_token: token })).body.error).toBe('invalid_grant');
    // A code for an address that has an account is answered like any other: the mail tells the owner, with no code.
    const before = inbox.to(email).length;
    const taken = await ask({ usage: 'REGISTER', email });
    const free = await ask({ usage: 'REGISTER', email: 'nobody-here@example.com' });
    expect([taken.status, Object.keys(taken.body).sort(), taken.body.expires_in]).toEqual([free.status, Object.keys(free.body).sort(), free.body.expires_in]);
    const notice = await inbox.nth(email, before + 1);
    expect(notice.subject).toBe('This e-mail address already has a Haul account');
    expect(notice.text).toMatch(/already has one, so no code was sent/);
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
  });

  it('a stranger asking for sign-up codes for a taken address never blocks its owner\'s reset or confirmations', async () => {
    const owner = await account('Olive');
    // Far past the address's budget of claims, from many networks.
    for (let i = 0; i < 8; i++) await ask({ usage: 'REGISTER', email: owner.email });
    expect((await ask({ usage: 'REGISTER', email: owner.email })).status).toBe(429);
    // The owner's reset has a budget of its own, and so has the signed-in account's own business.
    const { code, id } = await codeFor(owner.email, { usage: 'PASSWORD_RESET', email: owner.email });
    expect((await verify(id, code)).status).toBe(200);
    expect((await ask({ usage: 'DEFAULT' }, { token: owner.access_token })).status).toBe(200);
  });

  it('escapes the name in the HTML part and writes in the language asked for', async () => {
    const email = 'markup@example.com';
    await createUser(h.ctx, { email, password: PW, name: '<b>x</b>' });
    const zh = await codeFor(email, { usage: 'PASSWORD_RESET', email }, { headers: { 'accept-language': 'fr;q=1, zh-CN;q=0.8, en;q=0.5' } });
    expect(zh.mail.subject).toBe('重置你的 Haul 密码');
    expect(zh.mail.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(zh.mail.html).not.toContain('<b>x</b>');
    expect(zh.mail.html).toContain(zh.code);
    expect(zh.mail.text).toContain('<b>x</b>');
    // The locale field wins over the header.
    const en = await codeFor(email, { usage: 'PASSWORD_RESET', email, locale: 'en-US' }, { headers: { 'accept-language': 'zh-CN' } });
    expect(en.mail.subject).toBe('Reset your Haul password');
  });

  it('refuses phone usages signed out and channels a usage does not have, saying why', async () => {
    const phone = await ask({ usage: 'PHONE_NUMBER_VERIFICATION', phone_number: '+14155552671' });
    expect(phone.body).toMatchObject({ error: 'unauthenticated' });
    expect((await ask({ usage: 'PASSWORD_RESET', email: 'a@example.com', selected_channel: 'VERIFICATION_PHONE' })).body.error_description).toMatch(/phone number/);
    expect((await ask({ usage: 'REGISTER', email: 'a@example.com', selected_channel: 'SMS' })).body.error_description).toMatch(/by e-mail/);
    expect((await ask({ usage: 'REGISTER_SIGN_IN', phone_number: '+14155552671', selected_channel: 'SMS' })).body.error_description).toMatch(/by e-mail/);
    expect((await ask({ usage: 'PASSWORD_RESET' })).body.error).toBe('invalid_argument');
  });
});
