/**
 * PayPal through its documented REST API (Orders v2, Payments v2, webhook verification): an order is created with our
 * order id as `custom_id`, the person approves it at PayPal, and we capture it server to server, when its webhook says
 * it was approved or when the status page asks; only a completed capture of the order's own amount pays. Notifications
 * are verified by PayPal itself (verify-webhook-signature with our webhook id). Subscriptions are in
 * paypal-subscriptions.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parsePrice, priceString } from '../plans/catalog.js';
import type { PaypalConfig } from './payment-config.js';
import { PaypalClient } from './paypal-client.js';
import { cancelAtPaypal, lookupSubscription, refundSale, saleCompleted, startSubscription, type Sale } from './paypal-subscriptions.js';
import { WebhookRejected, type Checkout, type CheckoutInput, type OrderRow, type PaymentNotice, type PaymentProvider, type SubscriptionRow } from './provider.js';

interface Money {
  currency_code: string;
  value: string;
}
interface Capture {
  id: string;
  status: string;
  amount: Money;
  custom_id?: string;
}
interface PaypalOrder {
  id: string;
  status: string;
  links?: { rel: string; href: string }[];
  purchase_units?: { custom_id?: string; payments?: { captures?: Capture[] } }[];
}

export class PaypalProvider implements PaymentProvider {
  readonly id = 'paypal';
  readonly name = 'PayPal';
  readonly recurring = true;
  readonly sandbox = false;
  private readonly api: PaypalClient;

  constructor(private readonly config: PaypalConfig) {
    this.api = new PaypalClient(config);
  }

  async startCheckout(input: CheckoutInput): Promise<Checkout> {
    if (input.order.interval) return startSubscription(this.api, input);
    const { order, product, successUrl, cancelUrl } = input;
    const created = await this.api.call<PaypalOrder>(
      'POST',
      '/v2/checkout/orders',
      {
        intent: 'CAPTURE',
        purchase_units: [{ custom_id: order.id, description: product.title.slice(0, 127), amount: { currency_code: order.currency, value: priceString(order.amount_minor, order.currency) } }],
        payment_source: { paypal: { experience_context: { return_url: successUrl, cancel_url: cancelUrl, user_action: 'PAY_NOW', shipping_preference: 'NO_SHIPPING' } } },
      },
      `haul-order-${order.id}`,
    );
    const approve = created.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href;
    if (!approve) throw new Error('PayPal answered an order without an approval address');
    return { redirectUrl: approve, providerRef: created.id };
  }

  /** Captures an approved PayPal order: the money moves now, and the capture says whether it did. */
  private async capture(paypalOrderId: string, fallbackOrderId?: string): Promise<PaymentNotice[]> {
    const done = await this.api.call<PaypalOrder>('POST', `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}/capture`, {}, `haul-capture-${paypalOrderId}`);
    return capturesOf(done, fallbackOrderId);
  }

  async lookup(order: OrderRow): Promise<PaymentNotice[]> {
    if (order.interval) return lookupSubscription(this.api, order, Date.now());
    if (!order.provider_ref) return [];
    const found = await this.api.call<PaypalOrder>('GET', `/v2/checkout/orders/${encodeURIComponent(order.provider_ref)}`);
    if (found.status === 'APPROVED') return this.capture(found.id, order.id);
    if (found.status === 'COMPLETED') return capturesOf(found, order.id);
    if (found.status === 'VOIDED') return [{ type: 'closed', eventId: `voided:${found.id}`, orderId: order.id }];
    return [];
  }

  async readWebhook(raw: Buffer, headers: IncomingHttpHeaders): Promise<PaymentNotice[]> {
    let event: { id?: string; event_type?: string; resource?: Record<string, unknown> };
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new WebhookRejected('the body is not JSON');
    }
    const h = (name: string) => String(headers[name] ?? '');
    if (!event.id || !h('paypal-transmission-sig')) throw new WebhookRejected('no PayPal transmission signature');
    const verdict = await this.api.call<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', {
      auth_algo: h('paypal-auth-algo'),
      cert_url: h('paypal-cert-url'),
      transmission_id: h('paypal-transmission-id'),
      transmission_sig: h('paypal-transmission-sig'),
      transmission_time: h('paypal-transmission-time'),
      webhook_id: this.config.webhookId,
      webhook_event: event,
    });
    if (verdict.verification_status !== 'SUCCESS') throw new WebhookRejected('PayPal did not verify the signature');
    const r = event.resource ?? {};
    switch (event.event_type) {
      case 'CHECKOUT.ORDER.APPROVED':
        return this.capture(String(r.id));
      case 'PAYMENT.CAPTURE.COMPLETED':
        return capturesOf({ id: '', status: 'COMPLETED', purchase_units: [{ payments: { captures: [r as unknown as Capture] } }] }, undefined, event.id);
      case 'PAYMENT.CAPTURE.DENIED': {
        const orderId = String(r.custom_id ?? '');
        return orderId ? [{ type: 'failed', eventId: event.id, orderId }] : [];
      }
      case 'PAYMENT.SALE.COMPLETED':
        return saleCompleted(this.api, r as unknown as Sale, Date.now());
      case 'PAYMENT.SALE.REFUNDED':
      case 'PAYMENT.SALE.REVERSED': {
        // A refund names its sale; a reversal is the sale itself.
        const saleId = String(r.sale_id ?? (event.event_type === 'PAYMENT.SALE.REVERSED' ? r.id : '') ?? '');
        return saleId ? [{ type: 'refunded', eventId: event.id, paymentRef: saleId }] : [];
      }
      case 'BILLING.SUBSCRIPTION.CANCELLED':
      case 'BILLING.SUBSCRIPTION.EXPIRED':
      case 'BILLING.SUBSCRIPTION.SUSPENDED':
        return r.id ? [{ type: 'subscription_ended', eventId: event.id, subscriptionRef: String(r.id) }] : [];
      case 'PAYMENT.CAPTURE.REFUNDED':
      case 'PAYMENT.CAPTURE.REVERSED': {
        // The refund's "up" link names the capture it gives back, the order's provider reference once paid.
        const up = (r.links as { rel: string; href: string }[] | undefined)?.find((l) => l.rel === 'up')?.href ?? '';
        const paymentRef = event.event_type === 'PAYMENT.CAPTURE.REVERSED' ? String(r.id ?? '') : (up.split('/').pop() ?? '');
        return paymentRef ? [{ type: 'refunded', eventId: event.id, paymentRef }] : [];
      }
      default:
        return [];
    }
  }

  async cancelSubscription(sub: SubscriptionRow): Promise<void> {
    await cancelAtPaypal(this.api, sub.provider_ref);
  }

  async refund(order: OrderRow): Promise<void> {
    if (order.interval) return refundSale(this.api, order);
    await this.api.call('POST', `/v2/payments/captures/${encodeURIComponent(order.provider_ref)}/refund`, {}, `haul-refund-${order.id}`);
  }
}

/** A paid notice per completed capture of the order's own money; `eventId` defaults to the capture's id. */
function capturesOf(order: PaypalOrder, fallbackOrderId?: string, eventId?: string): PaymentNotice[] {
  const unit = order.purchase_units?.[0];
  return (unit?.payments?.captures ?? [])
    .filter((c) => c.status === 'COMPLETED')
    .flatMap((c): PaymentNotice[] => {
      const orderId = c.custom_id ?? unit?.custom_id ?? fallbackOrderId ?? '';
      const amount = parsePrice(c.amount.value, c.amount.currency_code);
      if (!orderId || amount === null) return [];
      return [{ type: 'paid', eventId: eventId ?? `capture:${c.id}`, orderId, amountMinor: amount, currency: c.amount.currency_code, paymentRef: c.id }];
    });
}
