/**
 * Two-factor sign-in: set up with a sudo token, confirmed by a code the app makes (the test is the app, with otpauth),
 * then asked for at sign-in and for sudo; codes work once, recovery codes work once, guesses are limited in the
 * database, and turning it off asks for a code-backed sudo token.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const PASSWORD = 'correct horse';

describe('two-factor sign-in', () => {
  const clock = new ManualClock();
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul({}, clock);
  });
  afterAll(() => h?.destroy());

  const signIn = (email: string, code?: string) =>
    h.api('POST', '/v1/auth/signin', undefined, { username: email, password: PASSWORD, ...(code !== undefined ? { verification_code: code } : {}) });
  const sudo = async (token: string, code?: string) =>
    (await h.api('POST', '/v1/user/sudo', token, { password: PASSWORD, ...(code ? { verification_code: code } : {}) })).body.sudo_token as string;

  /** Turns it on for a new account; answers the app (a TOTP of the secret), the recovery codes and the tokens. */
  async function enrolled(email: string) {
    const tokens = await h.signUp(email, PASSWORD);
    const setup = await h.api('POST', '/v1/user/2fa/setup', tokens.access_token, { sudo_token: await sudo(tokens.access_token) });
    expect(setup.status).toBe(200);
    expect(setup.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Haul:.*secret=/);
    const app = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
    const at = () => app.generate({ timestamp: clock.now() });
    const on = await h.api('POST', '/v1/user/2fa/enable', tokens.access_token, { sudo_token: await sudo(tokens.access_token), code: at() });
    expect(on.status).toBe(200);
    expect(on.body.recovery_codes).toHaveLength(10);
    return { tokens, at, recovery: on.body.recovery_codes as string[] };
  }

  it('asks for a code after a right password, takes each code once, and the recovery codes once', async () => {
    const email = 'two@example.com';
    const { at, recovery } = await enrolled(email);
    // The enabling code is spent: the same 30 seconds' code does not sign in.
    expect((await signIn(email, at())).body.error).toBe('invalid_grant');
    const asked = await signIn(email);
    expect([asked.status, asked.body.error]).toEqual([403, 'two_factor_required']);
    // A wrong password still says only that.
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: email, password: 'nope' })).body.error).toBe('invalid_grant');

    clock.advance(30_000);
    const ok = await signIn(email, at());
    expect(ok.status).toBe(200);
    expect((await signIn(email, at())).body.error).toBe('invalid_grant');

    clock.advance(30_000);
    // A recovery code, typed in capitals and without dashes, works once.
    const typed = recovery[0]!.toUpperCase().replace(/-/g, '');
    expect((await signIn(email, typed)).status).toBe(200);
    expect((await signIn(email, recovery[0]!)).body.error).toBe('invalid_grant');
    const status = await h.api('GET', '/v1/user/2fa', ok.body.access_token);
    expect(status.body).toEqual({ enabled: true, recovery_codes_left: 9 });
  });

  it('asks for a code for sudo too, and turning it off takes a code-backed sudo token', async () => {
    const { tokens, at } = await enrolled('sudo2@example.com');
    const refused = await h.api('POST', '/v1/user/sudo', tokens.access_token, { password: PASSWORD });
    expect(refused.body.error).toBe('two_factor_required');
    clock.advance(30_000);
    const token = await sudo(tokens.access_token, at());
    expect(token).toBeTruthy();
    expect((await h.api('POST', '/v1/user/2fa/disable', tokens.access_token, { sudo_token: 'not a token' })).body.error).toBe('invalid_grant');
    expect((await h.api('GET', '/v1/user/2fa', tokens.access_token)).body.enabled).toBe(true);
    expect((await h.api('POST', '/v1/user/2fa/disable', tokens.access_token, { sudo_token: token })).status).toBe(200);
    expect((await signIn('sudo2@example.com')).status).toBe(200);
    expect(await h.ctx.db.selectFrom('recovery_codes').select('id').where('user_id', '=', tokens.sub).execute()).toEqual([]);
  });

  it('limits code guesses per account in the database; the owner gets in after the wait', async () => {
    const email = 'guess@example.com';
    const { at } = await enrolled(email);
    let last = 0;
    for (let i = 0; i < 8 && last !== 429; i++) last = (await signIn(email, String(100000 + i))).status;
    expect(last).toBe(429);
    const row = await h.ctx.db.selectFrom('attempt_limits').select('count').where('key', 'like', '2fa|u:%').orderBy('count', 'desc').executeTakeFirst();
    expect(row?.count).toBeGreaterThan(5);
    clock.advance(60_000);
    expect((await signIn(email, at())).status).toBe(200);
  });

  it('a password reset by mail also needs the code: the mailed token waits unspent until it comes', async () => {
    const email = 'reset2@example.com';
    const { at } = await enrolled(email);
    const sent = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'PASSWORD_RESET', email });
    // A reset's mail leaves in the background (its timing must not tell a known address from an unknown one).
    const mail = await vi.waitFor(() => h.ctx.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', email).orderBy('created_at', 'desc').executeTakeFirstOrThrow(), { timeout: 5000, interval: 20 });
    const code = /\b(\d{6})\b/.exec(mail.text_body)![1];
    const token = (await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: sent.body.verification_id, verification_code: code })).body.verification_token;
    const reset = (extra: object) => h.api('POST', '/v1/auth/reset', undefined, { verification_token: token, new_password: 'a new long password', ...extra });
    expect((await reset({})).body.error).toBe('two_factor_required');
    expect((await signIn(email, undefined)).body.error).toBe('two_factor_required'); // the old password still stands
    clock.advance(30_000);
    const done = await reset({ verification_code: at() });
    expect(done.status).toBe(200);
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: email, password: 'a new long password' })).body.error).toBe('two_factor_required');
  });

  it('a sign-in by mailed code also needs the code: the mailed token waits unspent until it comes', async () => {
    const email = 'bycode2@example.com';
    const { at } = await enrolled(email);
    const sent = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'SIGN_IN', email });
    const mail = await vi.waitFor(() => h.ctx.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', email).orderBy('created_at', 'desc').executeTakeFirstOrThrow(), { timeout: 5000, interval: 20 });
    const code = /\b(\d{6})\b/.exec(mail.text_body)![1];
    const token = (await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: sent.body.verification_id, verification_code: code })).body.verification_token;
    const signInByCode = (extra: object) => h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: token, email, ...extra });
    expect((await signInByCode({})).body.error).toBe('two_factor_required');
    clock.advance(30_000);
    const done = await signInByCode({ verification_code: at() });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await signInByCode({ verification_code: at() })).body.error).toBe('invalid_grant');
  });

  it('needs a confirmed set-up: a secret never confirmed asks for nothing, and a wrong first code turns nothing on', async () => {
    const tokens = await h.signUp('half@example.com', PASSWORD);
    await h.api('POST', '/v1/user/2fa/setup', tokens.access_token, { sudo_token: await sudo(tokens.access_token) });
    expect((await h.api('POST', '/v1/user/2fa/enable', tokens.access_token, { sudo_token: await sudo(tokens.access_token), code: '000000' })).body.error).toBe('invalid_grant');
    expect((await signIn('half@example.com')).status).toBe(200);
    expect((await h.api('GET', '/v1/user/2fa', tokens.access_token)).body).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect((await h.api('POST', '/v1/user/2fa/recovery-codes', tokens.access_token, { sudo_token: await sudo(tokens.access_token) })).body.error).toBe('failed_precondition');
    // The secret is stored sealed, not as the base32 the app was given.
    const row = await h.ctx.db.selectFrom('two_factor').select('secret').where('user_id', '=', tokens.sub).executeTakeFirstOrThrow();
    expect(row.secret).not.toMatch(/^[A-Z2-7]+=*$/);
  });
});
