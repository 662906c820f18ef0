/**
 * An abandoned checkout expires: an order still unpaid ORDER_EXPIRES_AFTER_MS after it started closes as expired
 * (not before), the sandbox takes no payment for it then, the list of orders shows it expired, a new order of the
 * product can be paid, and a canceled order is not called expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_EXPIRES_AFTER_MS } from '../src/payments/orders.service.js';
import { saveProduct } from '../src/plans/catalog.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

describe('an abandoned checkout', () => {
  let h: TestHaul;
  const clock = new ManualClock(Date.UTC(2026, 10, 10, 12));
  beforeAll(async () => {
    h = await startTestHaul({ paySandbox: true, accessTokenTtlSeconds: 365 * 86400, refreshTokenTtlSeconds: 365 * 86400 }, clock);
    await saveProduct(h.ctx.db, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: '' }, clock.now());
  });
  afterAll(() => h.destroy());

  const order = (tok: string) => h.api('POST', '/vip/v1/pay/order/sandbox', tok, { product_id: 'premium-month' });
  const status = async (tok: string, id: string) => (await h.api('GET', `/vip/v1/pay/payStatus/${id}`, tok)).body;
  const decide = (tok: string, id: string, outcome: string) => h.api('POST', `/vip/v1/pay/sandbox/${id}`, tok, { outcome });

  it('is documented as 30 minutes', () => {
    expect(ORDER_EXPIRES_AFTER_MS).toBe(30 * 60_000);
  });

  it('waits until its time is up, then closes as expired and takes no payment', async () => {
    const t = await h.signUp();
    const id = (await order(t.access_token)).body.order_id;
    clock.advance(ORDER_EXPIRES_AFTER_MS - 1000);
    expect(await status(t.access_token, id)).toMatchObject({ status: 'pending', order: { expired: false } });

    clock.advance(1000);
    expect(await status(t.access_token, id)).toMatchObject({ status: 'close', order: { status: 'close', expired: true } });
    const late = await decide(t.access_token, id, 'pay');
    expect(late.status).toBe(409);
    expect((await h.api('GET', '/vip/v1/vip/info', t.access_token)).body.premium).toBe(false);

    // Trying again is a new checkout of the same product.
    const again = (await order(t.access_token)).body.order_id;
    expect(again).not.toBe(id);
    expect((await decide(t.access_token, again, 'pay')).body.status).toBe('succeed');
    const orders = (await h.api('GET', '/vip/v1/pay/orders', t.access_token)).body.orders;
    expect(orders.map((o: any) => [o.id, o.status, o.expired])).toEqual([
      [again, 'succeed', false],
      [id, 'close', true],
    ]);
  });

  it('expires in the list of orders too, without its status being asked', async () => {
    const t = await h.signUp();
    const id = (await order(t.access_token)).body.order_id;
    clock.advance(ORDER_EXPIRES_AFTER_MS + 5000);
    const orders = (await h.api('GET', '/vip/v1/pay/orders', t.access_token)).body.orders;
    expect(orders.map((o: any) => [o.id, o.status, o.expired])).toEqual([[id, 'close', true]]);
  });

  it('calls a canceled checkout canceled, not expired', async () => {
    const t = await h.signUp();
    const id = (await order(t.access_token)).body.order_id;
    expect((await decide(t.access_token, id, 'cancel')).body.status).toBe('close');
    clock.advance(ORDER_EXPIRES_AFTER_MS * 2);
    expect(await status(t.access_token, id)).toMatchObject({ status: 'close', order: { expired: false } });
  });
});
