/**
 * Orders and subscriptions as the person sees them: start one with a provider, read where it stands (asking the
 * provider while it is pending), list them, cancel a subscription's renewals; and the operator's refund.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Order, OrderStatus, Subscription } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { publicUrl } from '../http/public-url.js';
import { newId } from '../lib/ids.js';
import { toRfc3339 } from '../lib/time.js';
import { findProduct, priceString } from '../plans/catalog.js';
import { presentSubscription, subscriptionStatus } from '../plans/vip-info.js';
import { applyNotice } from './fulfilment.js';
import type { OrderRow, PaymentProvider } from './provider.js';
import { paymentProviders } from './providers.js';

const notFound = (what: string) => new HttpError(404, 'not_found', what);

/**
 * A checkout not paid within this time expires: its order closes and the status page stops waiting. 30 minutes is
 * Stripe's shortest checkout life (its session is made to end just after), and long enough for a card's extra checks.
 * A payment the provider still takes later fulfils the closed order all the same (fulfilment.ts, PAYABLE).
 */
export const ORDER_EXPIRES_AFTER_MS = 30 * 60_000;

/** Closes the account's pending orders (or just `orderId`) whose checkout time ran out. */
export async function expireStaleOrders(ctx: AppContext, userId: string, orderId?: string): Promise<void> {
  const now = ctx.clock.now();
  let q = ctx.db
    .updateTable('orders')
    .set({ status: 'close', updated_at: now })
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('created_at', '<=', now - ORDER_EXPIRES_AFTER_MS);
  if (orderId) q = q.where('id', '=', orderId);
  await q.execute();
}

/** An order closed once its checkout time was up: expired, rather than canceled by the person or the provider. */
export const expiredOrder = (row: Pick<OrderRow, 'status' | 'created_at' | 'updated_at'>) => row.status === 'close' && row.updated_at >= row.created_at + ORDER_EXPIRES_AFTER_MS;

export function providerOf(ctx: AppContext, id: string): PaymentProvider {
  const provider = paymentProviders(ctx.config).get(id);
  if (!provider) throw notFound(`No payment provider "${id}" is set up on this server.`);
  return provider;
}

/** A path on this site to come back to ('' when none); anything that could lead elsewhere is refused. */
export function localPath(url: string | undefined, field: string): string {
  if (!url) return '';
  if (!/^\/(?![/\\])[^\s\\]*$/.test(url)) throw badInput(`${field} must be a path on this site, like /drive/payment.`);
  return url;
}

export interface StartInput {
  product_id: string;
  task_id?: string;
  return_url?: string;
  cancel_url?: string;
}

export async function startOrder(ctx: AppContext, userId: string, providerId: string, input: StartInput, recurring: boolean) {
  const back = localPath(input.return_url, 'return_url');
  localPath(input.cancel_url, 'cancel_url');
  const provider = providerOf(ctx, providerId);
  const product = await findProduct(ctx.db, input.product_id);
  if (!product || !product.active) throw notFound('This product is not on sale.');
  if (!!product.interval !== recurring) {
    throw new HttpError(409, 'failed_precondition', recurring ? 'This product is paid once: order it with /vip/v1/pay/order.' : 'This product renews: subscribe with /vip/v1/pay/subscription.');
  }
  if (recurring && !provider.recurring) throw new HttpError(409, 'failed_precondition', `${provider.name} does not take subscriptions.`);
  if (recurring) {
    const renewing = (await subscriptionStatus(ctx, userId)).find((s) => s.kind === product.kind)?.subscription;
    if (renewing) throw new HttpError(409, 'failed_precondition', `Your subscription "${renewing.title}" renews this already. Cancel it first on the subscriptions page; what you paid for runs to its end.`);
  }
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const now = ctx.clock.now();
  const order: OrderRow = {
    id: newId(),
    user_id: userId,
    product_id: product.id,
    provider: provider.id,
    status: 'pending',
    grant_spec: product.grant_spec,
    amount_minor: product.price_minor,
    currency: product.currency,
    interval: product.interval,
    provider_ref: '',
    subscription_id: '',
    task_id: input.task_id ?? '',
    created_at: now,
    updated_at: now,
    fulfilled_at: null,
  };
  await ctx.db.insertInto('orders').values(order).execute();
  const status = new URL(`/drive/payment/status/${order.id}`, publicUrl(ctx));
  if (back) status.searchParams.set('return', back);
  const canceled = new URL(status);
  canceled.searchParams.set('canceled', '1');
  let checkout;
  try {
    checkout = await provider.startCheckout({ order, product, user, successUrl: status.toString(), cancelUrl: canceled.toString() });
  } catch (err) {
    await ctx.db.updateTable('orders').set({ status: 'close', updated_at: ctx.clock.now() }).where('id', '=', order.id).execute();
    throw new HttpError(503, 'unavailable', `${provider.name} could not be reached (${(err as Error).message}). Nothing was charged; please try again.`);
  }
  await ctx.db.updateTable('orders').set({ provider_ref: checkout.providerRef }).where('id', '=', order.id).execute();
  return { order_id: order.id, redirect_url: checkout.redirectUrl, status: 'pending' as const };
}

export function presentOrder(row: OrderRow, title: string | null | undefined): Order {
  return {
    id: row.id,
    product_id: row.product_id,
    title: title ?? row.product_id,
    provider: row.provider,
    status: row.status as OrderStatus,
    price: priceString(row.amount_minor, row.currency),
    currency: row.currency,
    subscriber_type: row.interval === 'month' || row.interval === 'year' ? row.interval : 'none',
    task_id: row.task_id,
    expired: expiredOrder(row),
    created_at: toRfc3339(row.created_at),
    fulfilled_at: row.fulfilled_at === null ? '' : toRfc3339(row.fulfilled_at),
  };
}

/** Orders with their product's title (null once the product is gone). */
const ordersWithTitle = (ctx: AppContext) => ctx.db.selectFrom('orders').leftJoin('products', 'products.id', 'orders.product_id').selectAll('orders').select('products.title');

async function ownOrder(ctx: AppContext, userId: string, orderId: string) {
  const row = await ordersWithTitle(ctx)
    .where('orders.id', '=', orderId)
    .where('orders.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound('No such order of yours.');
  return row;
}

/**
 * Where an order stands; a pending one is first checked with its provider, when the provider can be asked, and
 * expires when still unpaid after ORDER_EXPIRES_AFTER_MS.
 */
export async function orderStatus(ctx: AppContext, userId: string, orderId: string, log?: FastifyBaseLogger) {
  let row = await ownOrder(ctx, userId, orderId);
  const provider = paymentProviders(ctx.config).get(row.provider);
  if (row.status === 'pending') {
    if (provider?.lookup) {
      // A provider out of reach only means the answer waits for its notification.
      const notices = await provider.lookup(row).catch((err) => (log?.warn({ err, order: row.id }, 'payment provider lookup failed'), []));
      for (const n of notices) await applyNotice(ctx, provider.id, n, log);
    }
    await expireStaleOrders(ctx, userId, orderId);
    row = await ownOrder(ctx, userId, orderId);
  }
  const order = presentOrder(row, row.title);
  return { status: order.status, order };
}

export async function listOrders(ctx: AppContext, userId: string, limit: number): Promise<Order[]> {
  await expireStaleOrders(ctx, userId);
  const rows = await ordersWithTitle(ctx)
    .where('orders.user_id', '=', userId)
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => presentOrder(r, r.title));
}

export async function cancelSubscription(ctx: AppContext, userId: string, subscriptionId: string): Promise<Subscription> {
  const sub = await ctx.db.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).where('user_id', '=', userId).executeTakeFirst();
  if (!sub) throw notFound('No such subscription of yours.');
  if (sub.status !== 'active') throw new HttpError(409, 'failed_precondition', 'This subscription is not active: it renews no more.');
  const provider = providerOf(ctx, sub.provider);
  try {
    await provider.cancelSubscription(sub);
  } catch (err) {
    throw new HttpError(503, 'unavailable', `${provider.name} could not be reached (${(err as Error).message}); the subscription is unchanged. Please try again.`);
  }
  const now = ctx.clock.now();
  await ctx.db.updateTable('subscriptions').set({ status: 'canceled', updated_at: now }).where('id', '=', sub.id).execute();
  const product = await findProduct(ctx.db, sub.product_id);
  return presentSubscription({ ...sub, status: 'canceled', updated_at: now }, product);
}

/** The operator's refund: the provider gives the money back, then the grant is taken back here at once. */
export async function refundOrder(ctx: AppContext, orderId: string): Promise<OrderRow> {
  const order = await ctx.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!order) throw new Error(`no order ${orderId}`);
  if (order.status !== 'succeed') throw new Error(`order ${orderId} is ${order.status}: only a paid order can be refunded`);
  const provider = paymentProviders(ctx.config).get(order.provider);
  if (!provider) throw new Error(`the provider ${order.provider} is not set up any more: refund at the provider, then run this again with it set up`);
  await provider.refund(order);
  await applyNotice(ctx, provider.id, { type: 'refunded', eventId: `refund:${order.id}`, orderId: order.id });
  return { ...order, status: 'refunded' };
}
