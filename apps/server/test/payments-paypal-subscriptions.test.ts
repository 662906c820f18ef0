/**
 * PayPal subscriptions against a local server speaking PayPal's documented shapes: our product gets a PayPal plan once
 * (a new one when its price changes), the first sale pays the order (from the status page or the notification,
 * whichever comes first, once), later sales renew, a cancel stops renewals at PayPal, a refunded sale takes its grant
 * back, and unverified notifications change nothing. One sale grants once, however many notifications and event ids
 * tell of it, and when two of them arrive at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProduct } from '../src/plans/catalog.js';
import { applyNotice } from '../src/payments/fulfilment.js';
import { refundOrder } from '../src/payments/orders.service.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { PaypalApi } from './paypal-api.js';

const DAY = 86_400_000;

describe('PayPal subscriptions', () => {
  let h: TestHaul;
  const paypal = new PaypalApi('client-2', 'secret-2', 'WH-ID-2');
  const monthly = { id: 'premium-monthly', title: 'Premium, monthly', grant: 'premium:30d', price: '3.99', currency: 'EUR', interval: 'month' as const };
  beforeAll(async () => {
    const base = await paypal.start();
    h = await startTestHaul({ paypal: { clientId: 'client-2', clientSecret: 'secret-2', webhookId: 'WH-ID-2', apiBase: new URL(base) } });
    await saveProduct(h.ctx.db, monthly, Date.now());
  });
  afterAll(async () => {
    await h.destroy();
    await paypal.close();
  });

  const vip = async (tok: string) => (await h.api('GET', '/vip/v1/vip/info', tok)).body;
  const post = (e: { payload: string; headers: Record<string, string> }) => h.app.inject({ method: 'POST', url: '/vip/v1/pay/webhook/paypal', headers: e.headers, payload: e.payload });
  const subscribe = async (tok: string) => {
    const r = await h.api('POST', '/vip/v1/pay/subscription/paypal', tok, { product_id: 'premium-monthly' });
    expect(r.status).toBe(200);
    const sub = [...paypal.subscriptions.values()].find((s) => s.custom_id === r.body.order_id)!;
    return { orderId: r.body.order_id as string, redirect: r.body.redirect_url as string, subId: sub.id };
  };
  const status = async (tok: string, orderId: string) => (await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, tok)).body.status;
  const mySubscriptions = async (tok: string) => (await h.api('GET', '/vip/v1/pay/subscription', tok)).body.subscriptions;

  it('makes one PayPal plan per product and price, and pays the order from its first sale once', async () => {
    expect((await h.api('GET', '/vip/v1/pay/settings')).body.providers).toEqual([{ id: 'paypal', name: 'PayPal', recurring: true, sandbox: false }]);
    const t = await h.signUp();
    const a = await subscribe(t.access_token);
    expect(a.redirect).toBe(`https://www.paypal.test/webapps/billing/subscriptions?ba_token=${a.subId}`);
    expect([...paypal.products.keys()]).toEqual(['HAUL-premium-monthly']);
    const [plan] = [...paypal.plans.values()];
    expect(plan!.billing_cycles[0]).toMatchObject({ frequency: { interval_unit: 'MONTH', interval_count: 1 }, pricing_scheme: { fixed_price: { value: '3.99', currency_code: 'EUR' } } });
    const created = paypal.calls.find((c) => c.method === 'POST' && c.path === '/v1/billing/subscriptions')!;
    expect(created.headers['paypal-request-id']).toBe(`haul-order-${a.orderId}`);
    expect(new URL(created.body.application_context.return_url).pathname).toBe(`/drive/payment/status/${a.orderId}`);

    // Not approved yet: pending, nothing granted.
    expect(await status(t.access_token, a.orderId)).toBe('pending');
    expect((await vip(t.access_token)).premium).toBe(false);

    const next = new Date(Date.now() + 30 * DAY);
    const sale = paypal.bill(a.subId, next);
    expect(await status(t.access_token, a.orderId)).toBe('succeed');
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    const [sub] = await mySubscriptions(t.access_token);
    expect(sub).toMatchObject({ provider: 'paypal', status: 'active', product_id: 'premium-monthly' });
    expect(Date.parse(sub.current_period_end)).toBe(next.getTime());

    // The same sale's notification later: the order is paid already and the first sale renews nothing.
    expect((await post(paypal.event('PAYMENT.SALE.COMPLETED', sale))).json().results).toEqual(['replayed', 'ignored']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);

    // A second subscriber of the same product at the same price uses the same plan; a new price makes a new one.
    const u = await h.signUp();
    await subscribe(u.access_token);
    expect(paypal.plans.size).toBe(1);
    await saveProduct(h.ctx.db, { ...monthly, price: '4.99' }, Date.now());
    await subscribe(u.access_token);
    expect(paypal.plans.size).toBe(2);
    expect(paypal.calls.filter((c) => c.method === 'POST' && c.path === '/v1/catalogs/products')).toHaveLength(1);
    await saveProduct(h.ctx.db, monthly, Date.now());
  });

  it('renews from later sales, each once, stops renewals on cancel, and ends when PayPal says', async () => {
    const t = await h.signUp();
    const a = await subscribe(t.access_token);
    // The first sale reaches us as a notification before anyone asks.
    const first = paypal.bill(a.subId, new Date(Date.now() + 30 * DAY));
    expect((await post(paypal.event('PAYMENT.SALE.COMPLETED', first))).json().results).toEqual(['applied', 'ignored']);
    expect(await status(t.access_token, a.orderId)).toBe('succeed');
    expect((await vip(t.access_token)).surplus_day).toBe(30);

    const second = paypal.event('PAYMENT.SALE.COMPLETED', paypal.bill(a.subId, new Date(Date.now() + 60 * DAY)));
    expect((await post(second)).json().results).toEqual(['ignored', 'applied']);
    expect((await post(second)).json().results).toEqual(['replayed', 'replayed']);
    expect((await vip(t.access_token)).surplus_day).toBe(60);
    const orders = (await h.api('GET', '/vip/v1/pay/orders', t.access_token)).body.orders;
    expect(orders.map((o: { status: string }) => o.status)).toEqual(['succeed', 'succeed']);

    // A forged sale changes nothing.
    const forged = paypal.event('PAYMENT.SALE.COMPLETED', paypal.bill(a.subId, new Date(Date.now() + 90 * DAY)), false);
    expect((await post(forged)).statusCode).toBe(400);
    expect((await vip(t.access_token)).surplus_day).toBe(60);

    const [sub] = await mySubscriptions(t.access_token);
    expect((await h.api('POST', '/vip/v1/pay/cancelSubscription', t.access_token, { subscription_id: sub.id })).body.status).toBe('canceled');
    expect(paypal.subscriptions.get(a.subId)!.status).toBe('CANCELLED');
    expect(paypal.calls.some((c) => c.path === `/v1/billing/subscriptions/${a.subId}/cancel`)).toBe(true);
    expect((await post(paypal.event('BILLING.SUBSCRIPTION.CANCELLED', { id: a.subId }))).json().results).toEqual(['applied']);
    expect((await mySubscriptions(t.access_token))[0].status).toBe('ended');
    // What was paid for runs on.
    expect((await vip(t.access_token)).surplus_day).toBe(60);
  });

  it('takes back what a refunded sale granted, whether PayPal reports it or the operator refunds', async () => {
    const t = await h.signUp();
    const a = await subscribe(t.access_token);
    const first = paypal.bill(a.subId, new Date(Date.now() + 30 * DAY));
    await post(paypal.event('PAYMENT.SALE.COMPLETED', first));
    const renewal = paypal.bill(a.subId, new Date(Date.now() + 60 * DAY));
    await post(paypal.event('PAYMENT.SALE.COMPLETED', renewal));
    expect((await vip(t.access_token)).surplus_day).toBe(60);

    const refunded = { id: 'RF-9', state: 'completed', sale_id: renewal.id, amount: { total: '3.99', currency: 'EUR' } };
    expect((await post(paypal.event('PAYMENT.SALE.REFUNDED', refunded))).json().results).toEqual(['applied']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);

    await refundOrder(h.ctx, a.orderId);
    expect(paypal.calls.some((c) => c.method === 'POST' && c.path === `/v1/payments/sale/${first.id}/refund`)).toBe(true);
    expect((await vip(t.access_token)).premium).toBe(false);
    expect(await status(t.access_token, a.orderId)).toBe('refunded');
  });

  it('closes an order whose subscription ended before its first payment', async () => {
    const t = await h.signUp();
    const a = await subscribe(t.access_token);
    paypal.subscriptions.get(a.subId)!.status = 'CANCELLED';
    expect(await status(t.access_token, a.orderId)).toBe('close');
    expect(await mySubscriptions(t.access_token)).toEqual([]);
  });

  it('renews once for one sale, delivered twice, under another event id, or twice at once', async () => {
    const t = await h.signUp();
    const a = await subscribe(t.access_token);
    await post(paypal.event('PAYMENT.SALE.COMPLETED', paypal.bill(a.subId, new Date(Date.now() + 30 * DAY))));
    const sale = paypal.bill(a.subId, new Date(Date.now() + 60 * DAY));
    // Two notifications of the sale (each its own webhook id), at once.
    const both = await Promise.all([post(paypal.event('PAYMENT.SALE.COMPLETED', sale)), post(paypal.event('PAYMENT.SALE.COMPLETED', sale))]);
    // Each names the order (paid already: ignored) and the renewal; the second finds both event ids recorded.
    expect(both.flatMap((r) => r.json().results).sort()).toEqual(['applied', 'ignored', 'replayed', 'replayed']);
    // The sale told of again under an event id of another kind of notice: still the one renewal.
    const renewal = { type: 'renewed' as const, subscriptionRef: a.subId, invoiceRef: sale.id, periodEnd: Date.now() + 60 * DAY, amountMinor: 399, currency: 'EUR' };
    expect(await applyNotice(h.ctx, 'paypal', { ...renewal, eventId: `another:${sale.id}` })).toBe('ignored');
    expect(await Promise.all([applyNotice(h.ctx, 'paypal', { ...renewal, eventId: 'x1' }), applyNotice(h.ctx, 'paypal', { ...renewal, eventId: 'x2' })])).toEqual(['ignored', 'ignored']);
    expect((await vip(t.access_token)).surplus_day).toBe(60);
    expect((await h.api('GET', '/vip/v1/pay/orders', t.access_token)).body.orders).toHaveLength(2);
  });
});
