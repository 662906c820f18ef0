/**
 * Stripe through its official library: Checkout Sessions for one-time payments and subscriptions (prices given
 * inline, so the operator's catalogue needs no copy in Stripe's dashboard), webhooks verified with the library's
 * signature check (a wrong signature, a changed body or an old timestamp are refused), sessions looked up while an
 * order is pending, cancellation at the period's end, refunds. The library is loaded with the first call, so a server
 * without Stripe never loads it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type Stripe from 'stripe';
import type { StripeConfig } from './payment-config.js';
import { WebhookRejected, type Checkout, type CheckoutInput, type OrderRow, type PaymentNotice, type PaymentProvider, type SubscriptionRow } from './provider.js';

/** How long Stripe keeps a checkout open: the order's own time (ORDER_EXPIRES_AFTER_MS) and a minute. */
const CHECKOUT_SECONDS = 31 * 60;

const idOf = (v: string | { id: string } | null | undefined): string => (typeof v === 'string' ? v : (v?.id ?? ''));

export class StripeProvider implements PaymentProvider {
  readonly id = 'stripe';
  readonly name = 'Stripe';
  readonly recurring = true;
  readonly sandbox = false;
  private client: Promise<Stripe> | null = null;

  constructor(private readonly config: StripeConfig) {}

  private api(): Promise<Stripe> {
    const base = this.config.apiBase;
    this.client ??= import('stripe').then(
      ({ default: Stripe }) =>
        new Stripe(this.config.secretKey, {
          maxNetworkRetries: 2,
          timeout: 20_000,
          ...(base ? { host: base.hostname, port: Number(base.port) || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'http:' ? 'http' : 'https' } : {}),
        }),
    );
    return this.client;
  }

  async startCheckout({ order, product, user, successUrl, cancelUrl }: CheckoutInput): Promise<Checkout> {
    const interval = order.interval === 'month' || order.interval === 'year' ? order.interval : null;
    const session = await (await this.api()).checkout.sessions.create(
      {
        mode: interval ? 'subscription' : 'payment',
        client_reference_id: order.id,
        customer_email: user.email,
        metadata: { order_id: order.id },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: order.currency.toLowerCase(),
              unit_amount: order.amount_minor,
              product_data: { name: product.title },
              ...(interval ? { recurring: { interval } } : {}),
            },
          },
        ],
        ...(interval ? { subscription_data: { metadata: { order_id: order.id } } } : { payment_intent_data: { metadata: { order_id: order.id } } }),
        success_url: successUrl,
        cancel_url: cancelUrl,
        // Stripe's clock, not ours: the session ends a minute after the order expires here (its minimum is 30 minutes).
        expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_SECONDS,
      },
      // One order makes one session, however often the call is retried.
      { idempotencyKey: `haul-order-${order.id}` },
    );
    if (!session.url) throw new Error('Stripe answered a session without a checkout address');
    return { redirectUrl: session.url, providerRef: session.id };
  }

  async readWebhook(raw: Buffer, headers: IncomingHttpHeaders): Promise<PaymentNotice[]> {
    const signature = headers['stripe-signature'];
    if (typeof signature !== 'string') throw new WebhookRejected('no Stripe-Signature header');
    const api = await this.api();
    let event: Stripe.Event;
    try {
      event = api.webhooks.constructEvent(raw, signature, this.config.webhookSecret);
    } catch (err) {
      throw new WebhookRejected((err as Error).message);
    }
    return noticesOf(event);
  }

  async lookup(order: OrderRow): Promise<PaymentNotice[]> {
    if (!order.provider_ref.startsWith('cs_')) return [];
    const session = await (await this.api()).checkout.sessions.retrieve(order.provider_ref);
    return sessionNotices(`lookup:${session.id}:${session.status}:${session.payment_status}`, session);
  }

  async cancelSubscription(sub: SubscriptionRow): Promise<void> {
    await (await this.api()).subscriptions.update(sub.provider_ref, { cancel_at_period_end: true });
  }

  async refund(order: OrderRow): Promise<void> {
    if (!order.provider_ref.startsWith('pi_')) throw new Error(`order ${order.id} has no Stripe payment to refund (${order.provider_ref}): refund it in Stripe's dashboard`);
    await (await this.api()).refunds.create({ payment_intent: order.provider_ref }, { idempotencyKey: `haul-refund-${order.id}` });
  }
}

function sessionNotices(eventId: string, s: Stripe.Checkout.Session): PaymentNotice[] {
  const orderId = s.client_reference_id ?? s.metadata?.order_id ?? '';
  if (!orderId) return [];
  if (s.status === 'expired') return [{ type: 'closed', eventId, orderId }];
  if (s.status !== 'complete' || (s.payment_status !== 'paid' && s.payment_status !== 'no_payment_required')) return [];
  const subscription = idOf(s.subscription);
  return [
    {
      type: 'paid',
      eventId,
      orderId,
      amountMinor: s.amount_total ?? -1,
      currency: s.currency ?? '',
      paymentRef: idOf(s.payment_intent) || idOf(s.invoice),
      ...(subscription ? { subscriptionRef: subscription } : {}),
    },
  ];
}

/** What a Stripe event means for our orders; events of no concern mean nothing. */
export function noticesOf(event: Stripe.Event): PaymentNotice[] {
  const eventId = event.id;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
      return sessionNotices(eventId, event.data.object);
    case 'checkout.session.async_payment_failed': {
      const orderId = event.data.object.client_reference_id ?? '';
      return orderId ? [{ type: 'failed', eventId, orderId }] : [];
    }
    // Stripe sends both for one paid invoice; the invoice's id makes them one renewal (fulfilment.ts).
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      const inv = event.data.object;
      // The first invoice is the checkout's own payment, granted from its session.
      if (inv.billing_reason !== 'subscription_cycle') return [];
      const subscriptionRef = idOf(inv.parent?.subscription_details?.subscription);
      const line = inv.lines?.data?.[0];
      const periodEnd = (line?.period?.end ?? inv.period_end) * 1000;
      // Without the invoice's id nothing would tell two events of one invoice apart: such an event renews nothing.
      return subscriptionRef && inv.id ? [{ type: 'renewed', eventId, subscriptionRef, invoiceRef: inv.id, periodEnd, amountMinor: inv.amount_paid, currency: inv.currency }] : [];
    }
    case 'customer.subscription.deleted':
      return [{ type: 'subscription_ended', eventId, subscriptionRef: event.data.object.id }];
    case 'charge.refunded': {
      const charge = event.data.object;
      // Only a full refund takes the grant back; a partial one is the operator's gesture.
      if (!charge.refunded) return [];
      const paymentRef = idOf(charge.payment_intent);
      return paymentRef ? [{ type: 'refunded', eventId, paymentRef }] : [];
    }
    case 'charge.dispute.created': {
      const paymentRef = idOf(event.data.object.payment_intent);
      return paymentRef ? [{ type: 'refunded', eventId, paymentRef }] : [];
    }
    default:
      return [];
  }
}
