/**
 * The premium-deduct notice's facts (vip info `deductions`): an operator's refund takes the order's premium back, and
 * the person is told how many days, why (a refund, of which product) and when; the premium chained after a refunded
 * grant stays, and storage taken back is told in bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenResponse } from '@haul/shared';
import { createUser } from '../src/accounts/accounts.service.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const PW = 'correct horse';
const DAY = 86_400_000;

describe('premium deductions in vip info', () => {
  const clock = new ManualClock();
  let h: TestHaul;
  let admin: TokenResponse;
  const vip = async (tok: string) => (await h.api('GET', '/vip/v1/vip/info', tok)).body;
  const buy = async (tok: string, productId: string) => {
    const id = (await h.api('POST', '/vip/v1/pay/order/sandbox', tok, { product_id: productId })).body.order_id as string;
    expect((await h.api('POST', `/vip/v1/pay/sandbox/${id}`, tok, { outcome: 'pay' })).body).toEqual({ status: 'succeed' });
    return id;
  };
  const refund = async (id: string) => expect((await h.api('POST', `/admin/v1/orders/${id}/refund`, admin.access_token)).status).toBe(200);
  const product = (body: object) => h.api('POST', '/admin/v1/products', admin.access_token, { currency: 'EUR', interval: '', price: '4.99', ...body });

  beforeAll(async () => {
    h = await startTestHaul({ paySandbox: true, accessTokenTtlSeconds: 365 * 86400, refreshTokenTtlSeconds: 365 * 86400 }, clock);
    await createUser(h.ctx, { email: 'operator@example.com', password: PW, isAdmin: true });
    admin = (await h.api('POST', '/v1/auth/signin', undefined, { username: 'operator@example.com', password: PW })).body;
    expect((await product({ id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d' })).status).toBe(200);
    expect((await product({ id: 'storage-100', title: '100 GB more', grant: 'storage:100GB/30d', kind: 'storage' })).status).toBe(200);
  });
  afterAll(() => h?.destroy());

  it('none before a refund; a refund tells the days taken, the product and when, and premium ends', async () => {
    const buyer = await h.signUp();
    const id = await buy(buyer.access_token, 'premium-month');
    expect((await vip(buyer.access_token)).deductions).toEqual([]);
    clock.advance(DAY / 2);
    await refund(id);
    const info = await vip(buyer.access_token);
    expect(info.premium).toBe(false);
    expect(info.deductions).toEqual([{ kind: 'premium', days: 30, bytes: '0', reason: 'refund', title: 'Premium, 1 month', at: new Date(clock.now()).toISOString() }]);
  });

  it('refunding the first of two months takes what was left of it; the second month stays, moved forward', async () => {
    const buyer = await h.signUp();
    const first = await buy(buyer.access_token, 'premium-month');
    await buy(buyer.access_token, 'premium-month');
    clock.advance(5 * DAY);
    await refund(first);
    const info = await vip(buyer.access_token);
    expect(info.deductions).toMatchObject([{ kind: 'premium', days: 25, reason: 'refund' }]);
    expect([info.premium, info.surplus_day]).toEqual([true, 30]);
  });

  it('storage taken back is told in bytes; takings older than 90 days are no longer told', async () => {
    const buyer = await h.signUp();
    await refund(await buy(buyer.access_token, 'storage-100'));
    expect((await vip(buyer.access_token)).deductions).toMatchObject([{ kind: 'storage', days: 0, bytes: String(100 * 1024 ** 3), title: '100 GB more' }]);
    clock.advance(91 * DAY);
    expect((await vip(buyer.access_token)).deductions).toEqual([]);
  });

  it('the person reads them only as themselves: no token is refused', async () => {
    expect((await h.api('GET', '/vip/v1/vip/info')).status).toBe(401);
  });
});
