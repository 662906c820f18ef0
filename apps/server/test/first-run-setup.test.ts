/**
 * First-run setup: a fresh install waits for its operator. Sign-up, a sign-up code and a provider's first sign-in are
 * refused until the first account exists; POST /v1/setup makes it, as an operator, once however many race, and bad
 * input changes nothing. Then the operator sends a test message (the outbox without SMTP) and puts goods on sale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';

describe('first-run setup', () => {
  let h: TestHaul;
  let operator: TokenResponse;
  beforeAll(async () => {
    h = await startTestHaul({ firstRunSetup: true, registration: 'open' });
  });
  afterAll(() => h.destroy());

  it('waits for the operator: sign-up and sign-up codes are refused, and say why', async () => {
    expect((await h.api('GET', '/v1/setup')).body).toEqual({ required: true });
    const signUp = await h.api('POST', '/v1/auth/signup', undefined, { email: 'early@example.com', password: PW });
    expect([signUp.status, signUp.body.error]).toEqual([403, 'permission_denied']);
    expect(signUp.body.error_description).toContain('not set up yet');
    const code = await h.api('POST', '/v1/auth/verification', undefined, { email: 'early@example.com', usage: 'REGISTER' });
    expect([code.status, code.body.error]).toEqual([403, 'permission_denied']);
  });

  it('refuses a bad address or password and stays waiting', async () => {
    const bad = await h.api('POST', '/v1/setup', undefined, { email: 'not an address', password: PW });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_argument']);
    const short = await h.api('POST', '/v1/setup', undefined, { email: 'ops@example.com', password: 'x' });
    expect([short.status, short.body.error]).toEqual([400, 'invalid_argument']);
    expect((await h.api('GET', '/v1/setup')).body).toEqual({ required: true });
  });

  it('makes exactly one operator when several race, signed in; then sign-up opens', async () => {
    const tries = await Promise.all(
      ['ops@example.com', 'rival@example.com', 'third@example.com'].map((email) => h.api('POST', '/v1/setup', undefined, { email, password: PW })),
    );
    const won = tries.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of tries.filter((r) => r.status !== 200)) expect([lost.status, lost.body.error]).toEqual([409, 'failed_precondition']);
    operator = won[0]!.body as TokenResponse;
    expect((await h.api('GET', '/admin/v1/system', operator.access_token)).status).toBe(200);
    expect(await h.ctx.db.selectFrom('users').select('email').execute()).toHaveLength(1);

    expect((await h.api('GET', '/v1/setup')).body).toEqual({ required: false });
    const again = await h.api('POST', '/v1/setup', undefined, { email: 'late@example.com', password: PW });
    expect([again.status, again.body.error]).toEqual([409, 'failed_precondition']);
    const person = await h.signUp('person@example.com', PW);
    expect((await h.api('GET', '/admin/v1/system', person.access_token)).status).toBe(403);
  });

  it('sends the operator a test message into the outbox when no SMTP is set', async () => {
    const sent = await h.api('POST', '/admin/v1/mail/test', operator.access_token);
    expect(sent.status).toBe(200);
    expect(sent.body.via).toBe('outbox');
    const kept = await h.ctx.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', sent.body.to).execute();
    expect(kept.map((m) => m.subject)).toContain('Haul: a test message');
  });

  it('puts goods on sale for the operator only, refusing a bad price in words', async () => {
    const person = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'person@example.com', password: PW })).body as TokenResponse;
    const item = { id: 'premium-month', title: 'Premium, monthly', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: 'month' };
    expect((await h.api('POST', '/admin/v1/products', person.access_token, item)).status).toBe(403);
    const bad = await h.api('POST', '/admin/v1/products', operator.access_token, { ...item, price: 'free' });
    expect([bad.status, bad.body.error]).toEqual([400, 'invalid_argument']);
    expect(bad.body.error_description).toMatch(/^The price must be a positive amount/);
    const saved = await h.api('POST', '/admin/v1/products', operator.access_token, item);
    expect(saved.status).toBe(200);
    const onSale = await h.api('GET', '/vip/v1/pay/products');
    expect(onSale.body.products.map((p: { id: string }) => p.id)).toEqual(['premium-month']);
  });
});

describe('first-run setup on an install made with haul-admin', () => {
  it('is not required once an account exists, whoever made it', async () => {
    const h = await startTestHaul({ firstRunSetup: true });
    try {
      await createUser(h.ctx, { email: 'shell@example.com', password: PW, isAdmin: true });
      expect((await h.api('GET', '/v1/setup')).body).toEqual({ required: false });
      expect((await h.api('POST', '/v1/auth/signup', undefined, { email: 'next@example.com', password: PW })).status).toBe(200);
    } finally {
      await h.destroy();
    }
  });
});
