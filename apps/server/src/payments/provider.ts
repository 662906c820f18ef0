/**
 * What every payment provider adapter does, whoever the provider. An adapter turns an order into the provider's
 * checkout, and the provider's word (a signed notification, or its answer when asked) into notices; only notices move
 * orders (payments/fulfilment.ts), so the browser's return from a checkout grants nothing by itself.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { OrdersTable, SubscriptionsTable, UserRow } from '../db/schema.js';
import type { ProductRow } from '../plans/catalog.js';

export type OrderRow = OrdersTable;
export type SubscriptionRow = SubscriptionsTable;

export interface CheckoutInput {
  order: OrderRow;
  product: ProductRow;
  user: UserRow;
  /** Absolute addresses on this site the checkout sends the person back to. */
  successUrl: string;
  cancelUrl: string;
}

export interface Checkout {
  redirectUrl: string;
  /** The provider's id of the checkout, kept on the order to find it from the provider's notices. */
  providerRef: string;
}

/** One fact the provider vouched for; `eventId` is unique per provider, so a replayed notice changes nothing. */
export type PaymentNotice =
  | {
      type: 'paid';
      eventId: string;
      orderId: string;
      amountMinor: number;
      currency: string;
      /** The provider's id of the payment itself, kept on the order so a later refund of it finds the order. */
      paymentRef?: string;
      /** For a subscription's first payment: the provider's subscription and when its first period ends. */
      subscriptionRef?: string;
      periodEnd?: number;
    }
  | { type: 'failed' | 'closed'; eventId: string; orderId: string }
  /** Money given back or disputed: the order named by our id, or by the provider's id of its payment. */
  | { type: 'refunded'; eventId: string; orderId?: string; paymentRef?: string }
  | { type: 'renewed'; eventId: string; subscriptionRef: string; invoiceRef: string; periodEnd: number; amountMinor: number; currency: string }
  | { type: 'subscription_ended'; eventId: string; subscriptionRef: string };

/** A webhook whose signature, age or shape is wrong: answered 400 and ignored. */
export class WebhookRejected extends Error {}

export interface PaymentProvider {
  readonly id: string;
  readonly name: string;
  /** Takes subscriptions. */
  readonly recurring: boolean;
  readonly sandbox: boolean;
  startCheckout(input: CheckoutInput): Promise<Checkout>;
  /** The verified notices in a webhook request; throws WebhookRejected when it cannot be trusted. */
  readWebhook?(raw: Buffer, headers: IncomingHttpHeaders): Promise<PaymentNotice[]>;
  /** Asks the provider where a pending order stands. */
  lookup?(order: OrderRow): Promise<PaymentNotice[]>;
  /** Stops the subscription's renewals at the provider. */
  cancelSubscription(sub: SubscriptionRow): Promise<void>;
  /** Gives the money back at the provider; the grant is taken back when its notice (or this call's success) lands. */
  refund(order: OrderRow): Promise<void>;
}
