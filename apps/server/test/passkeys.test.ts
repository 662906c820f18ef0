/**
 * Passkeys: added with a sudo token (the password, or a mailed code for an account without one), checked by the real
 * @simplewebauthn/server against a software authenticator; sign-in issues an ordinary session that counts as both
 * factors; challenges are spent once and expire; a removed passkey no longer signs in; one account cannot touch
 * another's. The browser test (e2e/passkeys.e2e.ts) does the same through Chromium's virtual authenticator.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, startTestHaul, sudoToken, type TestHaul } from './helper.js';
import { SoftAuthenticator } from './soft-authenticator.js';

const ORIGIN = 'http://localhost:8080';

describe('passkeys', () => {
  const clock = new ManualClock();
  let h: TestHaul;
  beforeAll(async () => {
    // Passkeys need a host name browsers accept as the relying party: the links' base is pinned to localhost.
    h = await startTestHaul({ publicUrl: ORIGIN, publicUrlPinned: true }, clock);
  });
  afterAll(() => h?.destroy());

  const options = (token: string, sudo: string) => h.api('POST', '/v1/user/passkeys/options', token, { sudo_token: sudo });
  const signInOptions = async () => {
    const res = await h.api('POST', '/v1/auth/passkey/options', undefined, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.options;
  };
  const signIn = (credential: unknown) => h.api('POST', '/v1/auth/passkey/signin', undefined, { credential });

  /** A new account with one passkey added through the API: its tokens, the authenticator and the passkey's id. */
  async function enrolled(email?: string) {
    const tokens = await h.signUp(email);
    const auth = new SoftAuthenticator(ORIGIN);
    const sudo = await sudoToken(h, tokens.access_token);
    const opts = await options(tokens.access_token, sudo);
    expect(opts.status, JSON.stringify(opts.body)).toBe(200);
    const added = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo, credential: auth.create(opts.body.options), name: 'Phone' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return { tokens, auth, id: added.body.id as string, sudo };
  }

  it('asks for a sudo token before handing out registration options, and names this host as the relying party', async () => {
    const tokens = await h.signUp();
    expect((await h.api('POST', '/v1/user/passkeys/options', undefined, { sudo_token: 'x' })).status).toBe(401);
    const noSudo = await h.api('POST', '/v1/user/passkeys/options', tokens.access_token, {});
    expect([noSudo.status, noSudo.body.error]).toEqual([400, 'invalid_argument']);
    const badSudo = await options(tokens.access_token, 'not-a-token');
    expect([badSudo.status, badSudo.body.error]).toEqual([400, 'invalid_grant']);
    // Another session's sudo token is refused too.
    const other = await h.api('POST', '/v1/auth/signin', undefined, { username: (await h.api('GET', '/v1/user/me', tokens.access_token)).body.email, password: 'correct horse' });
    const foreign = await options(tokens.access_token, await sudoToken(h, other.body.access_token));
    expect(foreign.body.error).toBe('invalid_grant');

    const ok = await options(tokens.access_token, await sudoToken(h, tokens.access_token));
    expect(ok.status).toBe(200);
    expect(ok.body.options.rp).toEqual({ id: 'localhost', name: 'Haul' });
    expect(ok.body.options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(Buffer.from(ok.body.options.user.id, 'base64url').toString()).toBe(tokens.sub);
    // Adding also takes the sudo token.
    const auth = new SoftAuthenticator(ORIGIN);
    const without = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: 'nope', credential: auth.create(ok.body.options) });
    expect(without.body.error).toBe('invalid_grant');
    expect((await h.api('GET', '/v1/user/passkeys', tokens.access_token)).body.passkeys).toEqual([]);
  });

  it('signs in with the passkey alone, as both factors, into an ordinary session that sign-out everywhere ends', async () => {
    const { tokens, auth } = await enrolled();
    // Two-factor sign-in on: the password asks for a code, the passkey does not.
    const sudo = await sudoToken(h, tokens.access_token);
    const setup = await h.api('POST', '/v1/user/2fa/setup', tokens.access_token, { sudo_token: sudo });
    const app = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
    expect((await h.api('POST', '/v1/user/2fa/enable', tokens.access_token, { sudo_token: sudo, code: app.generate({ timestamp: clock.now() }) })).status).toBe(200);
    const email = (await h.api('GET', '/v1/user/me', tokens.access_token)).body.email;
    expect((await h.api('POST', '/v1/auth/signin', undefined, { username: email, password: 'correct horse' })).body.error).toBe('two_factor_required');

    const res = await signIn(auth.get(await signInOptions()));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', sub: tokens.sub });
    expect(typeof res.body.refresh_token).toBe('string');
    const me = await h.api('GET', '/v1/user/me', res.body.access_token);
    expect(me.body.email).toBe(email);
    // The refresh token works like any other.
    const refreshed = await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: res.body.refresh_token });
    expect(refreshed.status).toBe(200);

    const listed = (await h.api('GET', '/v1/user/passkeys', tokens.access_token)).body.passkeys;
    expect(listed).toEqual([expect.objectContaining({ name: 'Phone', last_used_at: new Date(clock.now()).toISOString() })]);
    const actions = await h.ctx.db.selectFrom('audit_events').select(['action', 'details']).where('subject_id', '=', tokens.sub).execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['passkey.added', 'sign_in.passkey']));

    expect((await h.api('DELETE', '/v1/user/sessions', tokens.access_token)).status).toBe(200);
    expect((await h.api('GET', '/v1/user/me', refreshed.body.access_token)).status).toBe(401);
  });

  it('spends a sign-in challenge once, and not after five minutes', async () => {
    const { auth } = await enrolled();
    const opts = await signInOptions();
    const answer = auth.get(opts);
    expect((await signIn(answer)).status).toBe(200);
    const replay = await signIn(answer);
    expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant']);
    expect(replay.body.error_description).toMatch(/expired or was used/);

    const late = await signInOptions();
    clock.advance(5 * 60_000 + 1);
    expect((await signIn(auth.get(late))).body.error).toBe('invalid_grant');
    // A challenge made up by the client was never handed out.
    expect((await signIn(auth.get({ ...late, challenge: 'bWFkZS11cA' }))).body.error).toBe('invalid_grant');
  });

  it("spends a registration challenge once, in the session that asked for it only", async () => {
    const tokens = await h.signUp();
    const sudo = await sudoToken(h, tokens.access_token);
    const opts = (await options(tokens.access_token, sudo)).body.options;
    const auth = new SoftAuthenticator(ORIGIN);
    // Another account (with its own sudo) cannot answer this account's challenge.
    const other = await h.signUp();
    const stolen = await h.api('POST', '/v1/user/passkeys', other.access_token, { sudo_token: await sudoToken(h, other.access_token), credential: auth.create(opts) });
    expect(stolen.body.error).toBe('invalid_grant');
    const added = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo, credential: auth.create(opts) });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const again = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo, credential: new SoftAuthenticator(ORIGIN).create(opts) });
    expect(again.body.error).toBe('invalid_grant');
    // The same authenticator again, on a new challenge, is excluded by the options and refused by the server.
    const next = (await options(tokens.access_token, sudo)).body.options;
    expect(next.excludeCredentials).toEqual([expect.objectContaining({ id: auth.id })]);
    expect((await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo, credential: auth.create(next) })).body.error).toBe('already_exists');
  });

  it('refuses a passkey made for another origin, or one that did not verify the person', async () => {
    const tokens = await h.signUp();
    const sudo = await sudoToken(h, tokens.access_token);
    const phished = new SoftAuthenticator('http://localhost.evil.test:8080');
    const r1 = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo, credential: phished.create((await options(tokens.access_token, sudo)).body.options) });
    expect([r1.status, r1.body.error]).toEqual([400, 'invalid_argument']);
    expect(r1.body.error_description).toMatch(/origin/i);
    const unverified = new SoftAuthenticator(ORIGIN, false);
    const r2 = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo, credential: unverified.create((await options(tokens.access_token, sudo)).body.options) });
    expect(r2.body.error).toBe('invalid_argument');
    expect(r2.body.error_description).toMatch(/verif/i);

    // A passkey signing in for another origin is refused.
    const { auth } = await enrolled();
    const wrong = await signIn(auth.get(await signInOptions(), { origin: 'http://localhost:9999' }));
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('a removed passkey no longer signs in, and one account cannot rename or remove another account\'s', async () => {
    const ann = await enrolled();
    const bob = await enrolled();
    const bobSudo = await sudoToken(h, bob.tokens.access_token);
    const steal = await h.api('DELETE', `/v1/user/passkeys/${ann.id}`, bob.tokens.access_token, { sudo_token: bobSudo });
    expect([steal.status, steal.body.error]).toEqual([404, 'not_found']);
    expect((await h.api('PATCH', `/v1/user/passkeys/${ann.id}`, bob.tokens.access_token, { name: 'mine' })).status).toBe(404);
    expect((await signIn(ann.auth.get(await signInOptions()))).body.sub).toBe(ann.tokens.sub);

    // Removing takes a sudo token.
    expect((await h.api('DELETE', `/v1/user/passkeys/${ann.id}`, ann.tokens.access_token, { sudo_token: 'nope' })).body.error).toBe('invalid_grant');
    const renamed = await h.api('PATCH', `/v1/user/passkeys/${ann.id}`, ann.tokens.access_token, { name: '  Work laptop ' });
    expect(renamed.body.name).toBe('Work laptop');
    expect((await h.api('PATCH', `/v1/user/passkeys/${ann.id}`, ann.tokens.access_token, { name: 'a\nb' })).body.error).toBe('invalid_argument');
    const gone = await h.api('DELETE', `/v1/user/passkeys/${ann.id}`, ann.tokens.access_token, { sudo_token: await sudoToken(h, ann.tokens.access_token) });
    expect(gone.status).toBe(200);
    const refused = await signIn(ann.auth.get(await signInOptions()));
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant']);
    expect(refused.body.error_description).toMatch(/not registered here.*removed/);
    expect((await h.api('DELETE', `/v1/user/passkeys/${ann.id}`, ann.tokens.access_token, { sudo_token: await sudoToken(h, ann.tokens.access_token) })).status).toBe(404);
    // Bob's still works.
    expect((await signIn(bob.auth.get(await signInOptions()))).body.sub).toBe(bob.tokens.sub);
    const removed = await h.ctx.db.selectFrom('audit_events').select('details').where('subject_id', '=', ann.tokens.sub).where('action', '=', 'passkey.removed').execute();
    expect(removed.map((r) => JSON.parse(r.details))).toEqual([{ name: 'Work laptop' }]);
  });

  it('lets an account without a password add a passkey with sudo by a mailed code', async () => {
    const email = 'nopassword@example.com';
    const asked = await h.api('POST', '/v1/auth/verification', undefined, { usage: 'REGISTER_SIGN_IN', email });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const code = async (to: string, skip = 0) => {
      const mails = await vi.waitFor(
        async () => {
          const rows = await h.ctx.db.selectFrom('mail_outbox').select('text_body').where('to_address', '=', to).orderBy('created_at').execute();
          if (rows.length <= skip) throw new Error('no mail yet');
          return rows;
        },
        { timeout: 5000, interval: 20 },
      );
      return /\b(\d{6})\b/.exec(mails[skip]!.text_body)![1]!;
    };
    const verified = await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: asked.body.verification_id, verification_code: await code(email) });
    const tokens = (await h.api('POST', '/v1/auth/signin/token', undefined, { verification_token: verified.body.verification_token, email })).body;
    expect(tokens.access_token).toBeTruthy();
    // No password to prove: a DEFAULT code to the account's own address buys the sudo token.
    const own = await h.api('POST', '/v1/auth/verification', tokens.access_token, { usage: 'DEFAULT' });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const ownToken = (await h.api('POST', '/v1/auth/verification/verify', undefined, { verification_id: own.body.verification_id, verification_code: await code(email, 1) })).body.verification_token;
    const sudo = await h.api('POST', '/v1/user/sudo', tokens.access_token, { verification_token: ownToken });
    expect(sudo.status, JSON.stringify(sudo.body)).toBe(200);
    const opts = await options(tokens.access_token, sudo.body.sudo_token);
    const auth = new SoftAuthenticator(ORIGIN);
    const added = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo.body.sudo_token, credential: auth.create(opts.body.options) });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect((await signIn(auth.get(await signInOptions()))).body.sub).toBe(tokens.sub);
  });

  it('answers malformed credentials with a 4xx error object, and spends the challenge all the same', async () => {
    const { tokens, auth, sudo } = await enrolled();
    const good = auth.get(await signInOptions()) as any;
    const bad: unknown[] = [
      {},
      { id: good.id, response: { clientDataJSON: '!!!' } },
      { id: good.id, response: { ...good.response, signature: 42 } },
      { id: good.id, response: { ...good.response, userHandle: 7 } },
      { id: 5, response: good.response },
    ];
    for (const credential of bad) {
      const res = await signIn(credential);
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ error: expect.any(String), error_description: expect.any(String) });
    }
    // One of those carried the real challenge: it is spent, so the good answer is refused now.
    expect((await signIn(good)).body.error).toBe('invalid_grant');
    const opts = (await options(tokens.access_token, sudo)).body.options;
    const made = new SoftAuthenticator(ORIGIN).create(opts) as any;
    const garbled = await h.api('POST', '/v1/user/passkeys', tokens.access_token, { sudo_token: sudo, credential: { ...made, response: { ...made.response, attestationObject: 'AAAA' } } });
    expect([garbled.status, garbled.body.error]).toEqual([400, 'invalid_argument']);
  });

  it('refuses a disabled account, and answers failed_precondition at an IP address', async () => {
    const { tokens, auth } = await enrolled();
    await h.ctx.db.updateTable('users').set({ disabled_at: clock.now() }).where('id', '=', tokens.sub).execute();
    const res = await signIn(auth.get(await signInOptions()));
    expect([res.status, res.body.error]).toEqual([403, 'permission_denied']);

    const byIp = await startTestHaul({ publicUrl: 'http://127.0.0.1:8080', publicUrlPinned: true });
    try {
      const r = await byIp.api('POST', '/v1/auth/passkey/options', undefined, {});
      expect([r.status, r.body.error]).toEqual([409, 'failed_precondition']);
      expect(r.body.error_description).toMatch(/IP address/);
    } finally {
      await byIp.destroy();
    }
  });
});
