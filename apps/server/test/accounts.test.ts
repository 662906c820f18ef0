import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHaul, type TestHaul } from './helper.js';

describe('accounts', () => {
  let h: TestHaul;
  beforeAll(async () => {
    h = await startTestHaul();
  });
  afterAll(() => h.destroy());

  it('signs up, signs in and reads the user info', async () => {
    const up = await h.api('POST', '/v1/auth/signup', undefined, { email: 'Ann@Example.com', password: 'secret-pass', name: 'Ann' });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(up.body.access_token).toMatch(/^ey/);
    const me = await h.api('GET', '/v1/user/me', up.body.access_token);
    expect(me.body).toMatchObject({ sub: up.body.sub, email: 'ann@example.com', name: 'Ann', premium: false });
    expect(JSON.stringify(me.body)).not.toContain('argon2');

    const inRes = await h.api('POST', '/v1/auth/signin', undefined, { username: 'ann@example.com', password: 'secret-pass' });
    expect(inRes.status).toBe(200);
    expect(inRes.body.sub).toBe(up.body.sub);
  });

  it('stores the password as an argon2id hash', async () => {
    const row = await h.ctx.db.selectFrom('users').select('password_hash').where('email', '=', 'ann@example.com').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('secret-pass');
  });

  it('refuses a wrong password, a duplicate email, a bad email and a short password', async () => {
    const wrong = await h.api('POST', '/v1/auth/signin', undefined, { username: 'ann@example.com', password: 'nope-nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant', error_description: 'The email or password is incorrect.' });
    const unknown = await h.api('POST', '/v1/auth/signin', undefined, { username: 'ghost@example.com', password: 'nope-nope' });
    expect(unknown.body.error_description).toBe(wrong.body.error_description);
    const dup = await h.api('POST', '/v1/auth/signup', undefined, { email: 'ann@example.com', password: 'another-pass' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('already_exists');
    const bad = await h.api('POST', '/v1/auth/signup', undefined, { email: 'not-an-email', password: 'long-enough' });
    expect(bad.status).toBe(400);
    const short = await h.api('POST', '/v1/auth/signup', undefined, { email: 'bob@example.com', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error_description).toMatch(/at least 8/);
    expect(await h.ctx.db.selectFrom('users').select('id').where('email', '=', 'bob@example.com').executeTakeFirst()).toBeUndefined();
  });

  it('rotates refresh tokens: the old one stops working once its successor is used', async () => {
    const t = await h.signUp();
    const r1 = await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(t.refresh_token);
    // Once the new one is used (or the grace window for a lost answer is over), the old one is a replay.
    expect((await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: r1.body.refresh_token })).status).toBe(200);
    const again = await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('invalid_grant');
    const stored = await h.ctx.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(r1.body.refresh_token);
  });

  it('revoke signs the session out', async () => {
    const t = await h.signUp();
    expect((await h.api('POST', '/v1/auth/revoke', undefined, { token: t.refresh_token })).status).toBe(200);
    const r = await h.api('POST', '/v1/auth/token', undefined, { grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(r.status).toBe(401);
  });

  it('refuses missing, forged and expired access tokens', async () => {
    expect((await h.api('GET', '/v1/user/me')).body.error).toBe('unauthenticated');
    expect((await h.api('GET', '/drive/v1/files', 'garbage')).status).toBe(401);
    const t = await h.signUp();
    const [head, body] = t.access_token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`;
    expect((await h.api('GET', '/v1/user/me', none)).status).toBe(401);
    const tampered = `${head}.${Buffer.from(JSON.stringify({ sub: 'someone-else', iss: 'haul', aud: 'haul-api', exp: 9999999999 })).toString('base64url')}.${t.access_token.split('.')[2]}`;
    expect((await h.api('GET', '/v1/user/me', tampered)).status).toBe(401);
  });
});

describe('password guessing', () => {
  it('slows repeated sign-ins for one account, without locking out others', async () => {
    const h = await startTestHaul();
    try {
      await h.signUp('victim@example.com', 'right-password');
      await h.signUp('bystander@example.com', 'right-password');
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push((await h.api('POST', '/v1/auth/signin', undefined, { username: 'victim@example.com', password: `guess-${i}-xx` })).status);
      }
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      const limited = await h.api('POST', '/v1/auth/signin', undefined, { username: 'victim@example.com', password: 'right-password' });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('too_many_requests');
      expect(limited.body.error_description).toMatch(/try again in \d+ seconds/);
      const other = await h.api('POST', '/v1/auth/signin', undefined, { username: 'bystander@example.com', password: 'right-password' });
      expect(other.status).toBe(200);
    } finally {
      await h.destroy();
    }
  });
});

describe('closed registration and token expiry', () => {
  it('refuses sign-up when registration is closed', async () => {
    const h = await startTestHaul({ registration: 'closed' });
    try {
      const res = await h.api('POST', '/v1/auth/signup', undefined, { email: 'x@example.com', password: 'long-enough' });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('permission_denied');
    } finally {
      await h.destroy();
    }
  });

  it('access tokens expire after their lifetime', async () => {
    const { ManualClock } = await import('./helper.js');
    const clock = new ManualClock(Date.now());
    const h = await startTestHaul({ accessTokenTtlSeconds: 60 }, clock);
    try {
      const t = await h.signUp();
      expect((await h.api('GET', '/v1/user/me', t.access_token)).status).toBe(200);
      clock.advance(61_000);
      const res = await h.api('GET', '/v1/user/me', t.access_token);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthenticated');
    } finally {
      await h.destroy();
    }
  });
});
