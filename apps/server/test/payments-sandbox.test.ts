/**
 * Paying with the sandbox provider: orders fulfilled once, only by the provider's decision; declines and cancels grant
 * nothing; another account's order is out of reach; return addresses stay on this site; subscriptions renew at their
 * period's end until canceled (each sandbox invoice once); the operator's refund takes the grant back; replayed notices
 * change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProduct } from '../src/plans/catalog.js';
import { applyNotice } from '../src/payments/fulfilment.js';
import { refundOrder } from '../src/payments/orders.service.js';
import { renewSandbox } from '../src/payments/sandbox-provider.js';
import { ManualClock, startTestHaul, type TestHaul } from './helper.js';

const DAY = 86_400_000;

describe('the sandbox provider', () => {
  let h: TestHaul;
  const clock = new ManualClock(Date.UTC(2026, 10, 10, 12));
  beforeAll(async () => {
    h = await startTestHaul({ paySandbox: true, accessTokenTtlSeconds: 365 * 86400, refreshTokenTtlSeconds: 365 * 86400 }, clock);
    await saveProduct(h.ctx.db, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: '' }, clock.now());
    await saveProduct(h.ctx.db, { id: 'premium-monthly', title: 'Premium, monthly', grant: 'premium:30d', price: '3.99', currency: 'EUR', interval: 'month' }, clock.now());
  });
  afterAll(() => h.destroy());

  const order = (tok: string, body: object, kind = 'order') => h.api('POST', `/vip/v1/pay/${kind}/sandbox`, tok, { product_id: 'premium-month', ...body });
  const decide = (tok: string, id: string, outcome: string) => h.api('POST', `/vip/v1/pay/sandbox/${id}`, tok, { outcome });
  const vip = async (tok: string) => (await h.api('GET', '/vip/v1/vip/info', tok)).body;

  it('is offered only when the operator turned it on', async () => {
    expect((await h.api('GET', '/vip/v1/pay/settings')).body.providers).toEqual([{ id: 'sandbox', name: 'Sandbox (no money)', recurring: true, sandbox: true }]);
    const off = await startTestHaul();
    try {
      expect((await off.api('GET', '/vip/v1/pay/settings')).body.providers).toEqual([]);
      const t = await off.signUp();
      expect((await off.api('POST', '/vip/v1/pay/order/sandbox', t.access_token, { product_id: 'x' })).body.error).toBe('not_found');
    } finally {
      await off.destroy();
    }
  });

  it('grants once, on the checkout\'s payment, and sends the person back where they came from', async () => {
    const t = await h.signUp();
    const started = await order(t.access_token, { return_url: '/drive/space-management', task_id: 'task-1' });
    expect(started.status).toBe(200);
    const redirect = new URL(started.body.redirect_url);
    expect(redirect.pathname).toBe(`/drive/payment/sandbox/${started.body.order_id}`);
    expect(redirect.searchParams.get('return')).toBe('/drive/space-management');
    const id = started.body.order_id;
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${id}`, t.access_token)).body).toMatchObject({ status: 'pending', order: { price: '4.99', currency: 'EUR', task_id: 'task-1', fulfilled_at: '' } });
    expect((await vip(t.access_token)).premium).toBe(false);

    expect((await decide(t.access_token, id, 'pay')).body).toEqual({ status: 'succeed' });
    const paid = (await h.api('GET', `/vip/v1/pay/payStatus/${id}`, t.access_token)).body;
    expect(paid.status).toBe('succeed');
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    const twice = await decide(t.access_token, id, 'pay');
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('failed_precondition');
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    expect((await h.api('GET', '/vip/v1/pay/orders', t.access_token)).body.orders.map((o: any) => o.status)).toEqual(['succeed']);
  });

  it('grants nothing for a declined or canceled checkout', async () => {
    const t = await h.signUp();
    const a = (await order(t.access_token, {})).body.order_id;
    const b = (await order(t.access_token, {})).body.order_id;
    expect((await decide(t.access_token, a, 'decline')).body.status).toBe('failed');
    expect((await decide(t.access_token, b, 'cancel')).body.status).toBe('close');
    expect((await vip(t.access_token)).premium).toBe(false);
  });

  it('keeps each order to its account, and return addresses to this site', async () => {
    const owner = await h.signUp();
    const other = await h.signUp();
    const id = (await order(owner.access_token, {})).body.order_id;
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${id}`, other.access_token)).status).toBe(404);
    expect((await decide(other.access_token, id, 'pay')).status).toBe(404);
    expect((await vip(other.access_token)).premium).toBe(false);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${id}`, owner.access_token)).body.status).toBe('pending');
    for (const url of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const r = await order(owner.access_token, { return_url: url });
      expect(r.status, url).toBe(400);
      expect(r.body.error).toBe('invalid_argument');
    }
    expect((await h.api('GET', '/vip/v1/pay/orders', owner.access_token)).body.orders).toHaveLength(1);
    expect((await order(owner.access_token, { product_id: 'nope' })).status).toBe(404);
    expect((await order(owner.access_token, { product_id: 'premium-monthly' })).body.error).toBe('failed_precondition');
  });

  it('renews a subscription each period until it is canceled, then lets it end', async () => {
    const t = await h.signUp();
    const id = (await order(t.access_token, { product_id: 'premium-monthly' }, 'subscription')).body.order_id;
    await decide(t.access_token, id, 'pay');
    const [sub] = (await h.api('GET', '/vip/v1/pay/subscription', t.access_token)).body.subscriptions;
    expect(sub).toMatchObject({ status: 'active', product_id: 'premium-monthly', title: 'Premium, monthly', kind: 'premium' });
    expect((await vip(t.access_token)).subscription.id).toBe(sub.id);
    expect((await h.api('GET', '/vip/v1/pay/subscriptionStatus', t.access_token)).body).toEqual({ subscribed: true, subscription: sub });
    const all = (await h.api('GET', '/vip/v1/pay/allSubscriptionStatus', t.access_token)).body.items;
    expect(all.map((i: any) => [i.kind, i.subscribed])).toEqual([['premium', true], ['storage', false], ['transfer', false]]);
    // A second premium subscription while this one renews is refused before any checkout.
    const again = await order(t.access_token, { product_id: 'premium-monthly' }, 'subscription');
    expect([again.status, again.body.error]).toEqual([409, 'failed_precondition']);

    clock.advance(30 * DAY + 1);
    expect(await renewSandbox(h.ctx)).toBe(1);
    expect(await renewSandbox(h.ctx)).toBe(0);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    const orders = (await h.api('GET', '/vip/v1/pay/orders', t.access_token)).body.orders;
    expect(orders.map((o: any) => [o.status, o.price])).toEqual([
      ['succeed', '3.99'],
      ['succeed', '3.99'],
    ]);

    const canceled = await h.api('POST', '/vip/v1/pay/cancelSubscription', t.access_token, { subscription_id: sub.id });
    expect(canceled.body.status).toBe('canceled');
    expect((await h.api('GET', '/vip/v1/pay/subscriptionStatus', t.access_token)).body).toEqual({ subscribed: false, subscription: null });
    expect((await h.api('POST', '/vip/v1/pay/cancelSubscription', t.access_token, { subscription_id: sub.id })).body.error).toBe('failed_precondition');
    clock.advance(31 * DAY);
    expect(await renewSandbox(h.ctx)).toBe(1);
    expect((await h.api('GET', '/vip/v1/pay/subscription', t.access_token)).body.subscriptions[0].status).toBe('ended');
    expect((await h.api('GET', '/vip/v1/pay/orders', t.access_token)).body.orders).toHaveLength(2);
    expect((await vip(t.access_token)).premium).toBe(false);
  });

  it('takes the grant back on the operator\'s refund, and ignores a replayed notice', async () => {
    const t = await h.signUp();
    const id = (await order(t.access_token, {})).body.order_id;
    await decide(t.access_token, id, 'pay');
    expect(await applyNotice(h.ctx, 'sandbox', { type: 'paid', eventId: `pay:${id}`, orderId: id, amountMinor: 499, currency: 'EUR' })).toBe('replayed');
    expect(await applyNotice(h.ctx, 'sandbox', { type: 'paid', eventId: 'another', orderId: id, amountMinor: 499, currency: 'EUR' })).toBe('ignored');
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    await refundOrder(h.ctx, id);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${id}`, t.access_token)).body.status).toBe('refunded');
    expect((await vip(t.access_token)).premium).toBe(false);
    await expect(refundOrder(h.ctx, id)).rejects.toThrow(/refunded/);
  });

  it('renews two subscriptions whose periods end at once, each once for its invoice', async () => {
    const [a, b] = [await h.signUp(), await h.signUp()];
    for (const t of [a, b]) await decide(t.access_token, (await order(t.access_token, { product_id: 'premium-monthly' }, 'subscription')).body.order_id, 'pay');
    clock.advance(30 * DAY + 1);
    expect(await renewSandbox(h.ctx)).toBe(2);
    const sub = await h.ctx.db.selectFrom('subscriptions').selectAll().where('user_id', '=', a.sub).executeTakeFirstOrThrow();
    const renewal = await h.ctx.db.selectFrom('orders').select('provider_ref').where('user_id', '=', a.sub).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const again = { type: 'renewed' as const, eventId: 'another-id', subscriptionRef: sub.provider_ref, invoiceRef: renewal.provider_ref, periodEnd: sub.current_period_end, amountMinor: 399, currency: 'EUR' };
    expect(await applyNotice(h.ctx, 'sandbox', again)).toBe('ignored');
    for (const t of [a, b]) expect((await vip(t.access_token)).surplus_day).toBe(30);
  });
});
