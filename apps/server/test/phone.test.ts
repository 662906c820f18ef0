/**
 * Phone numbers and codes by text message: through a real webhook receiver on loopback (the code read out of the
 * body, the signature checked), and into the outbox when no webhook is set. Binding, signing in and resetting a
 * password by phone; an unknown number answered like a known one; bad numbers refused with nothing changed.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markAccountDeleted } from '../src/accounts/account-deletion.service.js';
import { newestOutbox } from '../src/mail/outbox.js';
import { codeIn } from './mail-inbox.js';
import { SmsInbox } from './sms-inbox.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { ADMIN_MAIN } from './child-server.js';

const PASSWORD = 'correct horse';
const SECRET = 'bridge secret';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('codes by text message through the webhook', () => {
  let h: TestHaul;
  const sms = new SmsInbox();
  beforeAll(async () => {
    await sms.start();
    h = await startTestHaul({ smsWebhookUrl: sms.url, smsWebhookSecret: SECRET });
  });
  afterAll(async () => {
    await h?.destroy();
    await sms.stop();
  });

  const sudo = async (token: string) => (await h.api('POST', '/v1/user/sudo', token, { password: PASSWORD })).body.sudo_token as string;
  const me = async (token: string) => (await h.api('GET', '/v1/user/me', token)).body;
  /** Texts a code of `usage` to `phone` as `token`'s account, reads it at the receiver and trades it for a token. */
  async function verified(token: string | undefined, body: object, e164: string): Promise<string> {
    const before = sms.to(e164).length;
    const sent = await h.api('POST', '/v1/auth/verification', token, body);
    expect(sent.status).toBe(200);
    const message = await sms.nth(e164, before + 1);
    const check = await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: sent.body.verification_id, verification_code: codeIn({ text: message.body }) });
    expect(check.status).toBe(200);
    return check.body.verification_token;
  }

  it('signs each request, binds the number, and signs in with it', async () => {
    const a = await h.signUp('phone-a@example.com', PASSWORD);
    const token = await verified(a.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+44 7911 123456', selected_channel: 'VERIFICATION_PHONE' }, '+447911123456');
    const message = sms.to('+447911123456')[0]!;
    expect(message.contentType).toBe('application/json');
    expect(message.signature).toBe(`sha256=${createHmac('sha256', SECRET).update(message.raw).digest('hex')}`);
    expect(message.body).toMatch(/^\d{6} is your Haul code to confirm this phone number\./);

    const bound = await h.api('POST', '/v1/user/contact', a.access_token, { sudo_token: await sudo(a.access_token), verification_token: token, phone_number: '+447911123456' });
    expect(bound.status).toBe(200);
    expect(bound.body.phone_number).toBe('+447911123456');
    expect((await me(a.access_token)).phone_number).toBe('+447911123456');

    // The username is taken as a phone number when it looks like one; phone_number says so outright.
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: '+44 7911 123456', password: PASSWORD })).status).toBe(200);
    expect((await h.api('POST', '/v1/auth/signin', undefined, { phone_number: '+447911123456', password: PASSWORD })).status).toBe(200);
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: '+447911123456', password: 'wrong password' })).body.error).toBe('invalid_grant');
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: '07911 123456', password: PASSWORD })).body.error).toBe('invalid_argument');

    // Another account can neither ask for a code for the number nor bind it.
    const b = await h.signUp('phone-b@example.com', PASSWORD);
    // Asking answers as for a free number (nobody learns whose number it is); the text to it says so, with no code.
    const texts = sms.to('+447911123456').length;
    const asked = await h.api('POST', '/v1/auth/verification', b.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+447911123456' });
    expect([asked.status, Object.keys(asked.body).sort()]).toEqual([200, ['expires_in', 'verification_id']]);
    expect((await sms.nth('+447911123456', texts + 1)).body).toMatch(/already on one\. Nothing changed\.$/);
    const bToken = await verified(b.access_token, { usage: 'PHONE_NUMBER_VERIFICATION', phone_number: '+1 415 555 2671' }, '+14155552671');
    // A's token for its own number is not B's, nor is B's for another number.
    expect((await h.api('POST', '/v1/user/contact', b.access_token, { sudo_token: await sudo(b.access_token), verification_token: bToken, phone_number: '+447911123456' })).body.error).toBe('already_exists');
    expect((await me(b.access_token)).phone_number).toBe('');
  });

  it('resets a password by phone, and answers an unknown number exactly like a known one', async () => {
    const c = await h.signUp('phone-c@example.com', PASSWORD);
    const token = await verified(c.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+8613800138000' }, '+8613800138000');
    await h.api('POST', '/v1/user/contact', c.access_token, { sudo_token: await sudo(c.access_token), verification_token: token, phone_number: '+86 138 0013 8000' });

    const unknown = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'PASSWORD_RESET', phone_number: '+61 412 345 678' });
    const known = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'PASSWORD_RESET', phone_number: '+86 138 0013 8000', locale: 'zh-CN' });
    expect(unknown.status).toBe(known.status);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(unknown.body.expires_in).toBe(known.body.expires_in);
    const message = await sms.nth('+8613800138000', 2);
    expect(message.body).toMatch(/^\d{6} 是你重置 Haul 密码的验证码/);
    const reset = (await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: known.body.verification_id, verification_code: codeIn({ text: message.body }) })).body.verification_token;
    // The token is bound to the number it was texted to.
    expect((await h.api('POST', '/v1/auth/reset', undefined, { verification_token: reset, new_password: 'a new password', phone_number: '+61412345678' })).body.error).toBe('invalid_grant');
    const done = await h.api('POST', '/v1/auth/reset', undefined, { verification_token: reset, new_password: 'a new password', phone_number: '+86 138 0013 8000' });
    expect(done.status).toBe(200);
    expect(done.body.access_token).toBeTruthy();
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: '+8613800138000', password: 'a new password' })).status).toBe(200);
    // Nothing was ever texted to the number no account has.
    await sleep(200);
    expect(sms.to('+61412345678')).toEqual([]);
  });

  it('signs in with a texted code, to the account holding the number only; a number never makes an account', async () => {
    const d = await h.signUp('phone-t@example.com', PASSWORD);
    const bind = await verified(d.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+48 512 345 678' }, '+48512345678');
    await h.api('POST', '/v1/user/contact', d.access_token, { sudo_token: await sudo(d.access_token), verification_token: bind, phone_number: '+48512345678' });

    const texts = sms.to('+48512345678').length;
    const unknown = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'SIGN_IN', phone_number: '+48 600 000 001' });
    const known = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'SIGN_IN', phone_number: '+48 512 345 678' });
    expect([unknown.status, Object.keys(unknown.body).sort()]).toEqual([known.status, Object.keys(known.body).sort()]);
    const message = await sms.nth('+48512345678', texts + 1);
    expect(message.body).toMatch(/^\d{6} is your Haul code to sign in\./);
    const token = (await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: known.body.verification_id, verification_code: codeIn({ text: message.body }) })).body.verification_token;
    // Bound to the number it went to, and never to an address.
    expect((await h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: token, phone_number: '+48600000001' })).body.error).toBe('invalid_grant');
    expect((await h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: token, email: 'phone-t@example.com' })).body.error).toBe('invalid_grant');
    expect((await h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: token })).body.error).toBe('invalid_argument');
    const signed = await h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: token, phone_number: '+48 512 345 678' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await me(signed.body.access_token)).email).toBe('phone-t@example.com');
    // Spent once.
    expect((await h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: token, phone_number: '+48512345678' })).body.error).toBe('invalid_grant');
    // A number no account has got nothing, and REGISTER_SIGN_IN is by mail only.
    await sleep(200);
    expect(sms.to('+48600000001')).toEqual([]);
    expect((await h.api('POST', '/v1/auth/verification', undefined, { usage: 'REGISTER_SIGN_IN', phone_number: '+48600000001' })).body.error).toBe('invalid_argument');
  });

  it("texts a code that confirms it is you to the account's own number only, and it earns a sudo token", async () => {
    const e = await h.signUp('phone-s@example.com', PASSWORD);
    const noPhone = await h.api('POST', '/v1/auth/verification', e.access_token, { usage: 'DEFAULT', selected_channel: 'SMS' });
    expect([noPhone.status, noPhone.body.error]).toEqual([400, 'invalid_argument']);
    const bind = await verified(e.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+34 612 345 678' }, '+34612345678');
    await h.api('POST', '/v1/user/contact', e.access_token, { sudo_token: await sudo(e.access_token), verification_token: bind, phone_number: '+34612345678' });
    // Naming another number changes nothing: the code goes to the account's own.
    const token = await verified(e.access_token, { usage: 'DELETION', selected_channel: 'SMS', phone_number: '+34 699 999 999' }, '+34612345678');
    expect(sms.to('+34699999999')).toEqual([]);
    expect(sms.to('+34612345678').at(-1)!.body).toMatch(/to delete your account\./);
    // Another account cannot use it (and trying does not spend it).
    const other = await h.signUp('phone-s2@example.com', PASSWORD);
    expect((await h.api('POST', '/v1/user/sudo', other.access_token, { verification_token: token })).body.error).toBe('invalid_grant');
    const granted = await h.api('POST', '/v1/user/sudo', e.access_token, { verification_token: token });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.sudo_token).toBeTruthy();
  });

  it('counts codes per number in the database, as per address', async () => {
    const ask = () => h.api('POST', '/v1/auth/verification', undefined, { usage: 'PASSWORD_RESET', phone_number: '+33 6 12 34 56 78' });
    for (let i = 0; i < 6; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.body.error).toBe('too_many_requests');
    expect(refused.body.details[0].retry_after_seconds).toBeGreaterThan(0);
  });

  it('refuses bad numbers and wrong channels, changing nothing', async () => {
    const d = await h.signUp('phone-d@example.com', PASSWORD);
    const ask = (body: object) => h.api('POST', '/v1/auth/verification', d.access_token, body);
    for (const phone_number of ['07911 123456', '+1 234', '+44 7911 CALLME', '']) {
      const r = await ask({ usage: 'PHONE_NUMBER_CHANGE', phone_number });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_argument');
    }
    expect((await ask({ usage: 'EMAIL_ADDRESS_CHANGE', email: 'x@example.com', selected_channel: 'SMS' })).body.error_description).toMatch(/by e-mail/);
    expect((await ask({ usage: 'PHONE_NUMBER_CHANGE', phone_number: '+447700900123', selected_channel: 'EMAIL' })).body.error_description).toMatch(/text message/);
    const contact = (body: object) => h.api('POST', '/v1/user/contact', d.access_token, body);
    expect((await contact({ sudo_token: await sudo(d.access_token), phone_number: '+447911123457' })).body.error).toBe('invalid_argument');
    expect((await contact({ sudo_token: await sudo(d.access_token), verification_token: 'x', phone_number: 'not a number' })).body.error).toBe('invalid_argument');
    expect((await contact({ sudo_token: await sudo(d.access_token), verification_token: 'x', phone_number: '+447911123457', email: 'd2@example.com' })).body.error).toBe('invalid_argument');
    expect((await me(d.access_token)).phone_number).toBe('');
  });

  it('removes the number with a sudo token, after which it signs in nobody', async () => {
    const e = await h.signUp('phone-e@example.com', PASSWORD);
    const token = await verified(e.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+49 1512 3456789' }, '+4915123456789');
    await h.api('POST', '/v1/user/contact', e.access_token, { sudo_token: await sudo(e.access_token), verification_token: token, phone_number: '+4915123456789' });
    expect((await h.api('POST', '/v1/user/contact', e.access_token, { sudo_token: 'nope', phone_number: '' })).body.error).toBe('invalid_grant');
    const removed = await h.api('POST', '/v1/user/contact', e.access_token, { sudo_token: await sudo(e.access_token), phone_number: '' });
    expect(removed.status).toBe(200);
    expect(removed.body.phone_number).toBe('');
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: '+4915123456789', password: PASSWORD })).body.error).toBe('invalid_grant');
  });

  it('releases the number when the account is deleted', async () => {
    const g = await h.signUp('phone-g@example.com', PASSWORD);
    const token = await verified(g.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+61 412 345 679' }, '+61412345679');
    await h.api('POST', '/v1/user/contact', g.access_token, { sudo_token: await sudo(g.access_token), verification_token: token, phone_number: '+61412345679' });
    await markAccountDeleted(h.ctx, g.sub);
    expect((await h.ctx.db.selectFrom('users').select('phone_number').where('id', '=', g.sub).executeTakeFirstOrThrow()).phone_number).toBeNull();
    const k = await h.signUp('phone-k@example.com', PASSWORD);
    const kToken = await verified(k.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+61412345679' }, '+61412345679');
    expect((await h.api('POST', '/v1/user/contact', k.access_token, { sudo_token: await sudo(k.access_token), verification_token: kToken, phone_number: '+61412345679' })).status).toBe(200);
  });

  it('answers 503 when the bridge refuses a code someone is waiting for', async () => {
    const f = await h.signUp('phone-f@example.com', PASSWORD);
    sms.status = 500;
    try {
      const r = await h.api('POST', '/v1/auth/verification', f.access_token, { usage: 'PHONE_NUMBER_CHANGE', phone_number: '+44 7400 123456' });
      expect(r.status).toBe(503);
      expect(r.body.error).toBe('unavailable');
    } finally {
      sms.status = 200;
    }
  });
});

describe('codes by text message into the outbox', () => {
  let h: TestHaul;
  const lines: string[] = [];
  // SQLite in a folder of its own, so haul-admin (another process) reads the same database.
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-sms-'));
  beforeAll(async () => {
    h = await startTestHaul({ dataDir, databaseUrl: null, logLevel: 'info' }, undefined, { logStream: { write: (l) => void lines.push(l) } });
  });
  afterAll(async () => {
    await h?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the message for haul-admin outbox and logs the number masked, never the body', { timeout: 60_000 }, async () => {
    const a = await h.signUp('outbox-phone@example.com', PASSWORD);
    const sent = await h.api('POST', '/v1/auth/verification', a.access_token, { usage: 'PHONE_NUMBER_VERIFICATION', phone_number: '+1 (415) 555-2671' });
    expect(sent.status).toBe(200);
    const [kept] = (await newestOutbox(h.ctx.db, 10)).filter((m) => m.channel === 'sms');
    expect(kept).toMatchObject({ channel: 'sms', to: '+14155552671' });
    const code = codeIn(kept!);
    const logged = lines.filter((l) => l.includes('text message kept in the outbox'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('"to":"+14*******71"');
    expect(lines.join('\n')).not.toContain(code);
    expect(lines.join('\n')).not.toContain('+14155552671');
    const env = { ...process.env, HAUL_DATA_DIR: dataDir, DATABASE_URL: '', HAUL_SMS_WEBHOOK_URL: '', HAUL_LOG_LEVEL: 'silent' };
    const { stdout } = await promisify(execFile)(process.execPath, [ADMIN_MAIN, 'outbox', '--limit', '5'], { env });
    expect(stdout).toContain('Text message to: +14155552671');
    expect(stdout).toContain(`${code} is your Haul code to confirm this phone number.`);
    const token = (await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: sent.body.verification_id, verification_code: code })).body.verification_token;
    const sudo = (await h.api('POST', '/v1/user/sudo', a.access_token, { password: PASSWORD })).body.sudo_token;
    expect((await h.api('POST', '/v1/user/contact', a.access_token, { sudo_token: sudo, verification_token: token, phone_number: '+14155552671' })).body.phone_number).toBe('+14155552671');
  });
});
