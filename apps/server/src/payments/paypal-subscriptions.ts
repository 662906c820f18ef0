/**
 * PayPal subscriptions (Catalog Products, Billing Plans and Subscriptions v1): PayPal bills only against a plan kept in
 * its own catalogue, so each of our recurring products at its current price gets one, found again by a key in the
 * plan's description (no table of ours to keep in step) and made when missing; a price change makes a new plan.
 *
 * Every payment of a subscription is a sale. A sale is both a possible first payment (a `paid` notice for the order
 * named by the subscription's custom_id) and a possible renewal (a `renewed` notice); fulfilment keeps exactly one of
 * the two (the order is paid once; a renewal is never the payment that started the subscription), so the same facts
 * give the same result whether they come from the webhook or from the status page's lookup, in any order.
 */
import { parsePrice, priceString, type ProductRow } from '../plans/catalog.js';
import { PaypalError, type PaypalClient } from './paypal-client.js';
import type { Checkout, CheckoutInput, OrderRow, PaymentNotice } from './provider.js';

interface Money {
  currency_code: string;
  value: string;
}
export interface PaypalSubscription {
  id: string;
  status: 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';
  custom_id?: string;
  billing_info?: { next_billing_time?: string };
  links?: { rel: string; href: string }[];
}
interface Transaction {
  id: string;
  status: string;
  amount_with_breakdown?: { gross_amount?: Money };
  time?: string;
}
/** The sale of a PAYMENT.SALE.* notification (the v1 Payments shape). */
export interface Sale {
  id: string;
  amount?: { total?: string; currency?: string };
  billing_agreement_id?: string;
}

const DAY_MS = 86_400_000;
/** Plans found or made, per PayPal account (a client): another account has other plans. */
const planIds = new WeakMap<PaypalClient, Map<string, string>>();

/** PayPal's product id for ours: letters, digits, - and _, at most 50. */
const catalogId = (product: ProductRow) => `HAUL-${product.id.replace(/[^A-Za-z0-9_-]/g, '-')}`.slice(0, 50);

async function ensureCatalogProduct(api: PaypalClient, product: ProductRow): Promise<string> {
  const id = catalogId(product);
  try {
    await api.call('GET', `/v1/catalogs/products/${encodeURIComponent(id)}`);
  } catch (err) {
    if (!(err instanceof PaypalError) || err.status !== 404) throw err;
    await api.call('POST', '/v1/catalogs/products', { id, name: product.title.slice(0, 127), type: 'SERVICE' }, `haul-product-${id}`);
  }
  return id;
}

/** The id of PayPal's active plan that bills `order`'s price every `order.interval`. */
async function planFor(api: PaypalClient, order: OrderRow, product: ProductRow): Promise<string> {
  const key = `haul:${product.id}:${order.amount_minor}:${order.currency}:${order.interval}`;
  let known = planIds.get(api);
  if (!known) planIds.set(api, (known = new Map()));
  const found = known.get(key);
  if (found) return found;
  const remember = (id: string) => (known.set(key, id), id);
  const productId = await ensureCatalogProduct(api, product);
  const query = `/v1/billing/plans?product_id=${encodeURIComponent(productId)}&page_size=20`;
  for (let page = 1; page <= 10; page++) {
    const list = await api.call<{ plans?: { id: string; status: string; description?: string }[] }>('GET', `${query}&page=${page}`);
    const plan = list.plans?.find((p) => p.status === 'ACTIVE' && p.description === key);
    if (plan) return remember(plan.id);
    if ((list.plans?.length ?? 0) < 20) break;
  }
  const made = await api.call<{ id: string }>(
    'POST',
    '/v1/billing/plans',
    {
      product_id: productId,
      name: product.title.slice(0, 127),
      description: key,
      status: 'ACTIVE',
      billing_cycles: [
        {
          frequency: { interval_unit: order.interval === 'year' ? 'YEAR' : 'MONTH', interval_count: 1 },
          tenure_type: 'REGULAR',
          sequence: 1,
          total_cycles: 0,
          pricing_scheme: { fixed_price: { value: priceString(order.amount_minor, order.currency), currency_code: order.currency } },
        },
      ],
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 1 },
    },
    `haul-plan-${key}`,
  );
  return remember(made.id);
}

export async function startSubscription(api: PaypalClient, { order, product, successUrl, cancelUrl }: CheckoutInput): Promise<Checkout> {
  const plan = await planFor(api, order, product);
  const sub = await api.call<PaypalSubscription>(
    'POST',
    '/v1/billing/subscriptions',
    {
      plan_id: plan,
      custom_id: order.id,
      application_context: { user_action: 'SUBSCRIBE_NOW', shipping_preference: 'NO_SHIPPING', return_url: successUrl, cancel_url: cancelUrl },
    },
    `haul-order-${order.id}`,
  );
  const approve = sub.links?.find((l) => l.rel === 'approve')?.href;
  if (!approve) throw new Error('PayPal answered a subscription without an approval address');
  return { redirectUrl: approve, providerRef: sub.id };
}

const getSubscription = (api: PaypalClient, id: string) => api.call<PaypalSubscription>('GET', `/v1/billing/subscriptions/${encodeURIComponent(id)}`);

/** The notices one sale of a subscription may mean: its first payment, or a renewal. */
function saleNotices(sub: PaypalSubscription, saleId: string, money: Money | undefined, fallbackPeriod: number): PaymentNotice[] {
  const amount = money ? parsePrice(money.value, money.currency_code) : null;
  if (amount === null || !money) return [];
  const next = Date.parse(sub.billing_info?.next_billing_time ?? '');
  const periodEnd = Number.isFinite(next) ? next : fallbackPeriod;
  const currency = money.currency_code;
  const notices: PaymentNotice[] = [];
  if (sub.custom_id) notices.push({ type: 'paid', eventId: `sale:${saleId}`, orderId: sub.custom_id, amountMinor: amount, currency, paymentRef: saleId, subscriptionRef: sub.id, periodEnd });
  notices.push({ type: 'renewed', eventId: `renewal:${saleId}`, subscriptionRef: sub.id, invoiceRef: saleId, periodEnd, amountMinor: amount, currency });
  return notices;
}

/** A pending subscription order, asked of PayPal: its first sale pays it; a subscription that ended unpaid closes it. */
export async function lookupSubscription(api: PaypalClient, order: OrderRow, now: number): Promise<PaymentNotice[]> {
  if (!order.provider_ref.startsWith('I-')) return [];
  const sub = await getSubscription(api, order.provider_ref);
  if (sub.status === 'CANCELLED' || sub.status === 'EXPIRED') return [{ type: 'closed', eventId: `ended:${sub.id}`, orderId: order.id }];
  if (sub.status !== 'ACTIVE') return [];
  const range = `start_time=${new Date(order.created_at - DAY_MS).toISOString()}&end_time=${new Date(now + DAY_MS).toISOString()}`;
  const list = await api.call<{ transactions?: Transaction[] }>('GET', `/v1/billing/subscriptions/${encodeURIComponent(sub.id)}/transactions?${range}`);
  const first = (list.transactions ?? []).filter((t) => t.status === 'COMPLETED').sort((a, b) => Date.parse(a.time ?? '') - Date.parse(b.time ?? ''))[0];
  // Only the paid notice: the first sale is never a renewal.
  return first ? saleNotices(sub, first.id, first.amount_with_breakdown?.gross_amount, now).filter((n) => n.type === 'paid') : [];
}

/** A completed sale notification: the subscription it belongs to is read from PayPal for its order and period. */
export async function saleCompleted(api: PaypalClient, sale: Sale, now: number): Promise<PaymentNotice[]> {
  if (!sale.billing_agreement_id) return [];
  const sub = await getSubscription(api, sale.billing_agreement_id);
  const money = sale.amount?.total && sale.amount.currency ? { value: sale.amount.total, currency_code: sale.amount.currency } : undefined;
  return saleNotices(sub, sale.id, money, now);
}

export async function cancelAtPaypal(api: PaypalClient, subscriptionRef: string): Promise<void> {
  await api.call('POST', `/v1/billing/subscriptions/${encodeURIComponent(subscriptionRef)}/cancel`, { reason: 'Canceled by the subscriber' });
}

/** Gives a subscription's sale back (the order's provider reference once paid). */
export async function refundSale(api: PaypalClient, order: OrderRow): Promise<void> {
  if (order.provider_ref.startsWith('I-')) throw new Error(`order ${order.id} has no PayPal sale to refund yet`);
  await api.call('POST', `/v1/payments/sale/${encodeURIComponent(order.provider_ref)}/refund`, {}, `haul-refund-${order.id}`);
}
