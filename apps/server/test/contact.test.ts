/**
 * Changing the e-mail address: a sudo token and a code mailed to the new address (read from the outbox, where mail
 * goes with no SMTP server), then sign-in uses the new address and the old one is told. Wrong tokens, taken
 * addresses and another account's code change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

const PASSWORD = 'correct horse';

describe('changing the e-mail address', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h?.destroy());

  const sudo = async (token: string) => (await h.api('POST', '/v1/user/sudo', token, { password: PASSWORD })).body.sudo_token as string;
  /** Asks for a code to `email` as `token`'s account and trades it for a verification token. */
  async function verified(token: string, email: string): Promise<string> {
    const sent = await h.api('POST', '/v1/auth/verification', token, { usage: 'EMAIL_ADDRESS_CHANGE', email });
    expect(sent.status).toBe(200);
    const mail = await h.ctx.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', email.toLowerCase()).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const code = /\b(\d{6})\b/.exec(mail.text_body)![1];
    return (await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: sent.body.verification_id, verification_code: code })).body.verification_token;
  }

  it('moves sign-in to the new address and tells the old one', async () => {
    const me = await h.signUp('old@example.com', PASSWORD);
    const token = await verified(me.access_token, 'New@Example.com');
    const changed = await h.api('POST', '/v1/user/contact', me.access_token, { sudo_token: await sudo(me.access_token), verification_token: token, email: 'new@example.com' });
    expect(changed.status).toBe(200);
    expect(changed.body.email).toBe('new@example.com');
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: 'new@example.com', password: PASSWORD })).status).toBe(200);
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: 'old@example.com', password: PASSWORD })).body.error).toBe('invalid_grant');
    const noticeOf = () => h.ctx.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', 'old@example.com').executeTakeFirst();
    await expect.poll(noticeOf).toBeTruthy();
    const notice = (await noticeOf())!;
    expect(notice.subject).toBe('Your Haul e-mail address was changed');
    expect(notice.text_body).toContain('new@example.com');
    // The token was spent: it changes nothing a second time.
    expect((await h.api('POST', '/v1/user/contact', me.access_token, { sudo_token: await sudo(me.access_token), verification_token: token, email: 'third@example.com' })).body.error).toBe('invalid_grant');
  });

  it('refuses without a sudo token, for another address than the code went to, a taken address, or a phone number', async () => {
    const a = await h.signUp('a1@example.com', PASSWORD);
    const b = await h.signUp('b1@example.com', PASSWORD);
    const token = await verified(a.access_token, 'a2@example.com');
    const call = (body: object) => h.api('POST', '/v1/user/contact', a.access_token, body);
    expect((await call({ sudo_token: 'nope', verification_token: token, email: 'a2@example.com' })).body.error).toBe('invalid_grant');
    expect((await call({ sudo_token: await sudo(a.access_token), verification_token: token, email: 'a3@example.com' })).body.error).toBe('invalid_grant');
    expect((await call({ sudo_token: await sudo(a.access_token), verification_token: token, email: 'b1@example.com' })).body.error).toBe('already_exists');
    // An e-mail code binds no phone number.
    expect((await call({ sudo_token: await sudo(a.access_token), verification_token: token, phone_number: '+14155552671' })).body.error).toBe('invalid_grant');
    // Another account's code for the same new address is not this account's.
    const bToken = await verified(b.access_token, 'shared@example.com');
    expect((await call({ sudo_token: await sudo(a.access_token), verification_token: bToken, email: 'shared@example.com' })).body.error).toBe('invalid_grant');
    expect((await h.api('GET', '/v1/user/me', a.access_token)).body.email).toBe('a1@example.com');
    // The right token still works after all that.
    expect((await call({ sudo_token: await sudo(a.access_token), verification_token: token, email: 'a2@example.com' })).status).toBe(200);
  });
});
