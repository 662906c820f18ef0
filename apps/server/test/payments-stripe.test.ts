/**
 * Stripe through the official library: checkout sessions made against a local server that speaks Stripe's API, and
 * webhook events signed the way Stripe signs them. Only verified events move orders: a bad signature, a changed body
 * or an old timestamp are refused; a replay, or a payment of another amount, changes nothing. One payment told of under
 * several event ids (invoice.paid and invoice.payment_succeeded, an event re-sent with a new id) grants once, also when
 * the deliveries race in two processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { saveProduct } from '../src/plans/catalog.js';
import { applyNotice } from '../src/payments/fulfilment.js';
import { refundOrder } from '../src/payments/orders.service.js';
import { noticesOf } from '../src/payments/stripe-provider.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { signedEvent, StripeApi } from './stripe-api.js';

const SECRET = 'whsec_test_secret';

describe('the Stripe provider', () => {
  let h: TestHaul;
  const stripe = new StripeApi();
  beforeAll(async () => {
    const base = await stripe.start();
    h = await startTestHaul({ stripe: { secretKey: 'sk_test_haul', webhookSecret: SECRET, apiBase: new URL(base) } });
    await saveProduct(h.ctx.db, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '4.99', currency: 'EUR', interval: '' }, Date.now());
    await saveProduct(h.ctx.db, { id: 'premium-monthly', title: 'Premium, monthly', grant: 'premium:30d', price: '3.99', currency: 'EUR', interval: 'month' }, Date.now());
  });
  afterAll(async () => {
    await h.destroy();
    await stripe.close();
  });

  const post = (e: { payload: string; header: string }) =>
    h.app.inject({ method: 'POST', url: '/vip/v1/pay/webhook/stripe', headers: { 'content-type': 'application/json', 'stripe-signature': e.header }, payload: e.payload });
  const vip = async (tok: string) => (await h.api('GET', '/vip/v1/vip/info', tok)).body;
  const start = async (tok: string, product = 'premium-month') => {
    const r = await h.api('POST', `/vip/v1/pay/${product === 'premium-month' ? 'order' : 'subscription'}/stripe`, tok, { product_id: product, return_url: '/drive/payment' });
    expect(r.status).toBe(200);
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === r.body.order_id)!;
    return { orderId: r.body.order_id as string, session, redirect: r.body.redirect_url as string };
  };

  it('opens a Checkout Session for the order and grants on the signed completion event, once', async () => {
    const t = await h.signUp();
    const { orderId, session, redirect } = await start(t.access_token);
    expect(redirect).toBe(session.url);
    const call = stripe.calls.find((c) => c.path === '/v1/checkout/sessions')!;
    expect(call.authorization).toBe('Bearer sk_test_haul');
    expect(call.idempotencyKey).toBe(`haul-order-${orderId}`);
    expect(call.form.get('line_items[0][price_data][unit_amount]')).toBe('499');
    expect(call.form.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(new URL(session.success_url).pathname).toBe(`/drive/payment/status/${orderId}`);

    const event = signedEvent(SECRET, 'checkout.session.completed', stripe.pay(session.id));
    const first = await post(event);
    expect(first.statusCode).toBe(200);
    expect(first.json().results).toEqual(['applied']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    const replay = await post(event);
    expect(replay.json().results).toEqual(['replayed']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, t.access_token)).body.status).toBe('succeed');
  });

  it('refuses events with a bad signature, a changed body or an old timestamp, changing nothing', async () => {
    const t = await h.signUp();
    const { orderId, session } = await start(t.access_token);
    const paid = stripe.pay(session.id);
    const forged = signedEvent('whsec_someone_else', 'checkout.session.completed', paid);
    const changed = signedEvent(SECRET, 'checkout.session.completed', paid);
    const old = signedEvent(SECRET, 'checkout.session.completed', paid, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    for (const bad of [forged, { ...changed, payload: changed.payload.replace('"amount_total":499', '"amount_total":1') }, old, { payload: changed.payload, header: '' }]) {
      const r = await post(bad);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_argument');
    }
    expect((await vip(t.access_token)).premium).toBe(false);
    // Stripe says (when asked) the session is paid: the status query is the provider's word too.
    const asked = await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, t.access_token);
    expect(asked.body.status).toBe('succeed');
    expect(stripe.calls.some((c) => c.method === 'GET' && c.path === `/v1/checkout/sessions/${session.id}`)).toBe(true);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
  });

  it('ignores a payment of another amount, and closes an expired session', async () => {
    const t = await h.signUp();
    const a = await start(t.access_token);
    expect((await post(signedEvent(SECRET, 'checkout.session.completed', stripe.pay(a.session.id, { amount_total: 1 })))).json().results).toEqual(['ignored']);
    expect((await vip(t.access_token)).premium).toBe(false);
    const b = await start(t.access_token);
    expect((await post(signedEvent(SECRET, 'checkout.session.expired', { ...b.session, status: 'expired' }))).json().results).toEqual(['applied']);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${b.orderId}`, t.access_token)).body.status).toBe('close');
  });

  it('takes the grant back on a full refund or a dispute, and refunds through the API for the operator', async () => {
    const t = await h.signUp();
    const { orderId, session } = await start(t.access_token);
    const paid = stripe.pay(session.id);
    await post(signedEvent(SECRET, 'checkout.session.completed', paid));
    expect((await vip(t.access_token)).premium).toBe(true);
    await post(signedEvent(SECRET, 'charge.refunded', { id: 'ch_1', object: 'charge', refunded: false, amount_refunded: 100, payment_intent: paid.payment_intent }));
    expect((await vip(t.access_token)).premium).toBe(true);
    await post(signedEvent(SECRET, 'charge.refunded', { id: 'ch_1', object: 'charge', refunded: true, amount_refunded: 499, payment_intent: paid.payment_intent }));
    expect((await vip(t.access_token)).premium).toBe(false);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, t.access_token)).body.status).toBe('refunded');

    const u = await h.signUp();
    const second = await start(u.access_token);
    const paid2 = stripe.pay(second.session.id);
    await post(signedEvent(SECRET, 'checkout.session.completed', paid2));
    await refundOrder(h.ctx, second.orderId);
    const refund = stripe.calls.find((c) => c.path === '/v1/refunds')!;
    expect(refund.form.get('payment_intent')).toBe(paid2.payment_intent);
    expect((await vip(u.access_token)).premium).toBe(false);
  });

  it('runs a subscription: first payment, renewals from invoices, cancel at period end, the end', async () => {
    const t = await h.signUp();
    const { session } = await start(t.access_token, 'premium-monthly');
    const create = stripe.calls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!;
    expect(create.form.get('mode')).toBe('subscription');
    expect(create.form.get('line_items[0][price_data][recurring][interval]')).toBe('month');
    const paid = stripe.pay(session.id);
    await post(signedEvent(SECRET, 'checkout.session.completed', paid));
    const [sub] = (await h.api('GET', '/vip/v1/pay/subscription', t.access_token)).body.subscriptions;
    expect(sub.status).toBe('active');

    const periodEnd = Math.floor(Date.now() / 1000) + 60 * 86400;
    const invoice = (reason: string, amount = 399) => ({
      id: `in_${reason}_${amount}`,
      object: 'invoice',
      billing_reason: reason,
      amount_paid: amount,
      currency: 'eur',
      period_end: periodEnd,
      parent: { type: 'subscription_details', subscription_details: { subscription: paid.subscription } },
      lines: { object: 'list', data: [{ period: { start: periodEnd - 30 * 86400, end: periodEnd } }] },
    });
    expect((await post(signedEvent(SECRET, 'invoice.paid', invoice('subscription_create')))).json().results).toEqual([]);
    expect((await post(signedEvent(SECRET, 'invoice.paid', invoice('subscription_cycle')))).json().results).toEqual(['applied']);
    expect((await post(signedEvent(SECRET, 'invoice.paid', invoice('subscription_cycle', 1)))).json().results).toEqual(['ignored']);
    expect((await vip(t.access_token)).surplus_day).toBe(60);
    const [again] = (await h.api('GET', '/vip/v1/pay/subscription', t.access_token)).body.subscriptions;
    expect(new Date(again.current_period_end).getTime()).toBe(periodEnd * 1000);

    expect((await h.api('POST', '/vip/v1/pay/cancelSubscription', t.access_token, { subscription_id: sub.id })).body.status).toBe('canceled');
    const cancel = stripe.calls.find((c) => c.path === `/v1/subscriptions/${paid.subscription}`)!;
    expect(cancel.form.get('cancel_at_period_end')).toBe('true');
    await post(signedEvent(SECRET, 'customer.subscription.deleted', { id: paid.subscription, object: 'subscription', status: 'canceled' }));
    expect((await h.api('GET', '/vip/v1/pay/subscription', t.access_token)).body.subscriptions[0].status).toBe('ended');
  });

  /** A subscription paid at checkout, and a renewal invoice of it (the next period, at its price). */
  const subscribed = async (tok: string) => {
    const { session } = await start(tok, 'premium-monthly');
    const paid = stripe.pay(session.id);
    expect((await post(signedEvent(SECRET, 'checkout.session.completed', paid))).json().results).toEqual(['applied']);
    const periodEnd = Math.floor(Date.now() / 1000) + 60 * 86400;
    const renewal = {
      id: `in_cycle_${session.id}`,
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      amount_paid: 399,
      currency: 'eur',
      period_end: periodEnd,
      parent: { type: 'subscription_details', subscription_details: { subscription: paid.subscription } },
      lines: { object: 'list', data: [{ period: { start: periodEnd - 30 * 86400, end: periodEnd } }] },
    };
    return { renewal };
  };
  const orderCount = async (tok: string) => (await h.api('GET', '/vip/v1/pay/orders', tok)).body.orders.length;

  it('renews once for one invoice, whatever events and event ids tell of it', async () => {
    const t = await h.signUp();
    const { renewal } = await subscribed(t.access_token);
    expect((await post(signedEvent(SECRET, 'invoice.paid', renewal))).json().results).toEqual(['applied']);
    expect((await post(signedEvent(SECRET, 'invoice.payment_succeeded', renewal))).json().results).toEqual(['ignored']);
    // The same event sent again under a new id.
    expect((await post(signedEvent(SECRET, 'invoice.paid', renewal))).json().results).toEqual(['ignored']);
    expect((await vip(t.access_token)).surplus_day).toBe(60);
    expect(await orderCount(t.access_token)).toBe(2);
    // Without the invoice's id an event cannot be told from another: it renews nothing.
    expect((await post(signedEvent(SECRET, 'invoice.paid', { ...renewal, id: undefined }))).json().results).toEqual([]);
  });

  it('pays a one-off order once for its payment, under every event id that reports it', async () => {
    const t = await h.signUp();
    const { orderId, session } = await start(t.access_token);
    const paid = stripe.pay(session.id);
    expect((await post(signedEvent(SECRET, 'checkout.session.completed', paid))).json().results).toEqual(['applied']);
    expect((await post(signedEvent(SECRET, 'checkout.session.async_payment_succeeded', paid))).json().results).toEqual(['ignored']);
    expect((await post(signedEvent(SECRET, 'checkout.session.completed', paid))).json().results).toEqual(['ignored']);
    // The same payment told of another order of the account (a copy of the session naming it): no second grant.
    const other = await start(t.access_token);
    expect((await post(signedEvent(SECRET, 'checkout.session.completed', { ...paid, client_reference_id: other.orderId }))).json().results).toEqual(['ignored']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, t.access_token)).body.status).toBe('succeed');
    const row = await h.ctx.db.selectFrom('payment_fulfilments').selectAll().where('provider', '=', 'stripe').where('payment_ref', '=', paid.payment_intent!).execute();
    expect(row.map((r) => r.order_id)).toEqual([orderId]);
  });

  it('grants once when two events of one invoice are delivered at once, to two processes on PostgreSQL', async () => {
    const t = await h.signUp();
    const { renewal } = await subscribed(t.access_token);
    // On PostgreSQL the second delivery goes through a pool of its own, as another server process would.
    const second = h.ctx.config.databaseUrl ? await openDatabase({ databaseUrl: h.ctx.config.databaseUrl, dataDir: h.ctx.config.dataDir, poolSize: 2 }) : null;
    try {
      const elsewhere = async (e: { payload: string }) => {
        if (!second) return (await post(e as { payload: string; header: string })).json().results[0];
        const [notice] = noticesOf(JSON.parse(e.payload));
        return applyNotice({ ...h.ctx, db: second.db }, 'stripe', notice!);
      };
      const a = signedEvent(SECRET, 'invoice.paid', renewal);
      const b = signedEvent(SECRET, 'invoice.payment_succeeded', renewal);
      const results = await Promise.all([post(a).then((r) => r.json().results[0]), elsewhere(b)]);
      expect(results.sort()).toEqual(['applied', 'ignored']);
    } finally {
      await second?.db.destroy();
    }
    expect((await vip(t.access_token)).surplus_day).toBe(60);
    expect(await orderCount(t.access_token)).toBe(2);
  });
});
