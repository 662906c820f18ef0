/**
 * PayPal through its REST API, against a local server speaking its documented shapes: the order is captured server to
 * server once approved (asked by the status page, or told by the webhook), notifications count only when PayPal
 * verifies them, a replay changes nothing, one capture pays once whatever notices tell of it, and refunds take the
 * grant back. Subscriptions are in payments-paypal-subscriptions.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveProduct } from '../src/plans/catalog.js';
import { refundOrder } from '../src/payments/orders.service.js';
import { startTestHaul, type TestHaul } from './helper.js';
import { PaypalApi } from './paypal-api.js';

describe('the PayPal provider', () => {
  let h: TestHaul;
  const paypal = new PaypalApi('client-1', 'secret-1', 'WH-ID-1');
  beforeAll(async () => {
    const base = await paypal.start();
    h = await startTestHaul({ paypal: { clientId: 'client-1', clientSecret: 'secret-1', webhookId: 'WH-ID-1', apiBase: new URL(base) } });
    await saveProduct(h.ctx.db, { id: 'premium-month', title: 'Premium, 1 month', grant: 'premium:30d', price: '1234.50', currency: 'EUR', interval: '' }, Date.now());
  });
  afterAll(async () => {
    await h.destroy();
    await paypal.close();
  });

  const vip = async (tok: string) => (await h.api('GET', '/vip/v1/vip/info', tok)).body;
  const post = (e: { payload: string; headers: Record<string, string> }) => h.app.inject({ method: 'POST', url: '/vip/v1/pay/webhook/paypal', headers: e.headers, payload: e.payload });
  const start = async (tok: string) => {
    const r = await h.api('POST', '/vip/v1/pay/order/paypal', tok, { product_id: 'premium-month' });
    expect(r.status).toBe(200);
    const created = paypal.calls.filter((c) => c.path === '/v2/checkout/orders').at(-1)!;
    const paypalId = [...paypal.orders.values()].find((o) => o.custom_id === r.body.order_id)!.id;
    return { orderId: r.body.order_id as string, redirect: r.body.redirect_url as string, created, paypalId };
  };

  it('creates a PayPal order for ours and captures it once approved, when the status page asks', async () => {
    const t = await h.signUp();
    const { orderId, redirect, created, paypalId } = await start(t.access_token);
    expect(redirect).toBe(`https://www.paypal.test/checkoutnow?token=${paypalId}`);
    expect(created.headers['paypal-request-id']).toBe(`haul-order-${orderId}`);
    expect(created.body.purchase_units[0]).toMatchObject({ custom_id: orderId, amount: { currency_code: 'EUR', value: '1234.50' } });
    expect(new URL(created.body.payment_source.paypal.experience_context.return_url).pathname).toBe(`/drive/payment/status/${orderId}`);

    expect((await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, t.access_token)).body.status).toBe('pending');
    expect(paypal.calls.some((c) => c.path.endsWith('/capture'))).toBe(false);
    paypal.approve(paypalId);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, t.access_token)).body.status).toBe('succeed');
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    // The capture's own notification comes later: it changes nothing.
    const capture = paypal.orders.get(paypalId)!.capture!;
    expect((await post(paypal.event('PAYMENT.CAPTURE.COMPLETED', capture))).json().results).toEqual(['ignored']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
  });

  it('captures on the verified approval notification, refuses unverified ones, and ignores a replay', async () => {
    const t = await h.signUp();
    const { paypalId, orderId } = await start(t.access_token);
    paypal.approve(paypalId);
    const forged = await post(paypal.event('CHECKOUT.ORDER.APPROVED', { id: paypalId }, false));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toBe('invalid_argument');
    expect((await vip(t.access_token)).premium).toBe(false);
    const approved = paypal.event('CHECKOUT.ORDER.APPROVED', { id: paypalId });
    expect((await post(approved)).json().results).toEqual(['applied']);
    expect((await post(approved)).json().results).toEqual(['replayed']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${orderId}`, t.access_token)).body.status).toBe('succeed');
  });

  it('takes the grant back on a refund, made by the operator or reported by PayPal', async () => {
    const t = await h.signUp();
    const a = await start(t.access_token);
    paypal.approve(a.paypalId);
    await h.api('GET', `/vip/v1/pay/payStatus/${a.orderId}`, t.access_token);
    await refundOrder(h.ctx, a.orderId);
    const refund = paypal.calls.find((c) => /\/v2\/payments\/captures\/.+\/refund$/.test(c.path))!;
    expect(refund.path).toBe(`/v2/payments/captures/${paypal.orders.get(a.paypalId)!.capture!.id}/refund`);
    expect((await vip(t.access_token)).premium).toBe(false);

    const u = await h.signUp();
    const b = await start(u.access_token);
    paypal.approve(b.paypalId);
    await h.api('GET', `/vip/v1/pay/payStatus/${b.orderId}`, u.access_token);
    expect((await vip(u.access_token)).premium).toBe(true);
    const capture = paypal.orders.get(b.paypalId)!.capture!;
    const refunded = { id: 'RF-1', status: 'COMPLETED', links: [{ rel: 'up', href: `https://api.paypal.test/v2/payments/captures/${capture.id}` }] };
    expect((await post(paypal.event('PAYMENT.CAPTURE.REFUNDED', refunded))).json().results).toEqual(['applied']);
    expect((await vip(u.access_token)).premium).toBe(false);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${b.orderId}`, u.access_token)).body.status).toBe('refunded');
  });

  it('pays once for one capture, however many notifications, under whatever ids, report it', async () => {
    const t = await h.signUp();
    const a = await start(t.access_token);
    paypal.approve(a.paypalId);
    expect((await post(paypal.event('CHECKOUT.ORDER.APPROVED', { id: a.paypalId }))).json().results).toEqual(['applied']);
    const capture = paypal.orders.get(a.paypalId)!.capture!;
    const twice = await Promise.all([post(paypal.event('PAYMENT.CAPTURE.COMPLETED', capture)), post(paypal.event('PAYMENT.CAPTURE.COMPLETED', capture))]);
    expect(twice.map((r) => r.json().results)).toEqual([['ignored'], ['ignored']]);
    // The capture named by another order of the account: the payment paid an order already.
    const b = await start(t.access_token);
    expect((await post(paypal.event('PAYMENT.CAPTURE.COMPLETED', { ...capture, custom_id: b.orderId }))).json().results).toEqual(['ignored']);
    expect((await vip(t.access_token)).surplus_day).toBe(30);
    expect((await h.api('GET', `/vip/v1/pay/payStatus/${b.orderId}`, t.access_token)).body.status).toBe('pending');
  });
});
