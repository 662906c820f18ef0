/**
 * Orders move only here, from notices a provider vouched for. Each notice is recorded by its provider event id first,
 * in the same transaction as its effect, so a replayed notice changes nothing; an order is granted once (its
 * `fulfilled_at` is set by a conditional update), and a refund that arrives before the payment it undoes leaves the
 * order refunded, so the late payment grants nothing. A provider may tell of one payment under several event ids
 * (Stripe's invoice.paid and invoice.payment_succeeded, a re-sent event): every grant first claims the payment's key in
 * payment_fulfilments, in the granting transaction, so each payment grants once, across processes too.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';
import { applyGrant, revokeGrants } from '../plans/grants.js';
import type { OrderRow, PaymentNotice } from './provider.js';

export type NoticeResult = 'applied' | 'replayed' | 'ignored';

const DAY_MS = 86_400_000;
/** The end of a period begun at `from`, when the provider did not say (the sandbox). */
export const periodEndAfter = (from: number, interval: string) => from + (interval === 'year' ? 365 : 30) * DAY_MS;

export async function applyNotice(ctx: AppContext, provider: string, notice: PaymentNotice, log?: FastifyBaseLogger): Promise<NoticeResult> {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('payment_events')
      .values({ provider, event_id: notice.eventId, received_at: now })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .executeTakeFirst();
    if (Number(fresh.numInsertedOrUpdatedRows ?? 0) === 0) return 'replayed' as const;
    return (await effect(trx, provider, notice, now)) ? ('applied' as const) : ('ignored' as const);
  });
  if (result === 'ignored') log?.warn({ provider, type: notice.type, eventId: notice.eventId }, 'payment notice changed nothing');
  return result;
}

async function effect(trx: Db, provider: string, n: PaymentNotice, now: number): Promise<boolean> {
  switch (n.type) {
    case 'paid':
      return paid(trx, provider, n, now);
    case 'failed':
    case 'closed': {
      const r = await trx
        .updateTable('orders')
        .set({ status: n.type === 'failed' ? 'failed' : 'close', updated_at: now })
        .where('id', '=', n.orderId)
        .where('provider', '=', provider)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    }
    case 'refunded':
      return refunded(trx, provider, n, now);
    case 'renewed':
      return renewed(trx, provider, n, now);
    case 'subscription_ended': {
      const r = await trx
        .updateTable('subscriptions')
        .set({ status: 'ended', updated_at: now })
        .where('provider', '=', provider)
        .where('provider_ref', '=', n.subscriptionRef)
        .where('status', '!=', 'ended')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    }
  }
}

/**
 * Takes the key of one provider payment for `orderId`; false when the payment fulfilled an order already. A
 * concurrent claim of the same key in another transaction waits for it on PostgreSQL (SQLite has one writer), then
 * finds the key taken, so two deliveries of one payment under two event ids grant once.
 */
async function claimPayment(trx: Db, provider: string, paymentRef: string, orderId: string, now: number): Promise<boolean> {
  const r = await trx
    .insertInto('payment_fulfilments')
    .values({ provider, payment_ref: paymentRef, order_id: orderId, created_at: now })
    .onConflict((oc) => oc.columns(['provider', 'payment_ref']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

function findOrder(trx: Db, provider: string, id: string): Promise<OrderRow | undefined> {
  return trx.selectFrom('orders').selectAll().where('id', '=', id).where('provider', '=', provider).executeTakeFirst();
}

/** Statuses a payment may still fulfil: a refunded order stays refunded. */
const PAYABLE = ['pending', 'failed', 'close'];

const sameMoney = (o: Pick<OrderRow, 'amount_minor' | 'currency'>, amount: number, currency: string) => o.amount_minor === amount && o.currency === currency.toUpperCase();

async function paid(trx: Db, provider: string, n: Extract<PaymentNotice, { type: 'paid' }>, now: number): Promise<boolean> {
  const order = await findOrder(trx, provider, n.orderId);
  // A payment of another amount is not this order's: nothing is granted for it.
  if (!order || !sameMoney(order, n.amountMinor, n.currency)) return false;
  if (order.fulfilled_at !== null || !PAYABLE.includes(order.status)) return false;
  // The checkout's own id stands for a payment the provider did not name (a sandbox checkout, a free Stripe session).
  const paymentRef = n.paymentRef || order.provider_ref || `order:${order.id}`;
  if (!(await claimPayment(trx, provider, paymentRef, order.id, now))) return false;
  const won = await trx
    .updateTable('orders')
    .set({ status: 'succeed', fulfilled_at: now, updated_at: now, ...(n.paymentRef ? { provider_ref: n.paymentRef } : {}) })
    .where('id', '=', order.id)
    .where('fulfilled_at', 'is', null)
    .where('status', 'in', PAYABLE)
    .executeTakeFirst();
  if (Number(won.numUpdatedRows) === 0) {
    // Granted or refunded meanwhile by a concurrent notice: the claim is not kept for a grant not made.
    await trx.deleteFrom('payment_fulfilments').where('provider', '=', provider).where('payment_ref', '=', paymentRef).where('order_id', '=', order.id).execute();
    return false;
  }
  await applyGrant(trx, order.user_id, order.grant_spec, { source: 'order', sourceId: order.id }, now);
  if (order.interval) {
    const id = newId();
    await trx
      .insertInto('subscriptions')
      .values({
        id,
        user_id: order.user_id,
        product_id: order.product_id,
        provider,
        provider_ref: n.subscriptionRef ?? '',
        status: 'active',
        current_period_end: n.periodEnd ?? periodEndAfter(now, order.interval),
        created_at: now,
        updated_at: now,
      })
      .execute();
    await trx.updateTable('orders').set({ subscription_id: id }).where('id', '=', order.id).execute();
  }
  return true;
}

async function refunded(trx: Db, provider: string, n: Extract<PaymentNotice, { type: 'refunded' }>, now: number): Promise<boolean> {
  const order = n.orderId
    ? await findOrder(trx, provider, n.orderId)
    : n.paymentRef
      ? await trx.selectFrom('orders').selectAll().where('provider', '=', provider).where('provider_ref', '=', n.paymentRef).executeTakeFirst()
      : undefined;
  if (!order || order.status === 'refunded') return false;
  await trx.updateTable('orders').set({ status: 'refunded', updated_at: now }).where('id', '=', order.id).execute();
  if (order.fulfilled_at !== null) await revokeGrants(trx, { source: 'order', sourceId: order.id }, now);
  return true;
}

async function renewed(trx: Db, provider: string, n: Extract<PaymentNotice, { type: 'renewed' }>, now: number): Promise<boolean> {
  const sub = await trx.selectFrom('subscriptions').selectAll().where('provider', '=', provider).where('provider_ref', '=', n.subscriptionRef).executeTakeFirst();
  if (!sub || sub.status === 'ended') return false;
  // A renewal sells again what the first order sold, at its price.
  const first = await trx.selectFrom('orders').selectAll().where('subscription_id', '=', sub.id).orderBy('created_at').limit(1).executeTakeFirst();
  if (!first || !sameMoney(first, n.amountMinor, n.currency)) return false;
  // The payment that started the subscription paid its first order; it renews nothing.
  if (first.provider_ref === n.invoiceRef) return false;
  const id = newId();
  if (!(await claimPayment(trx, provider, n.invoiceRef, id, now))) return false;
  await trx
    .insertInto('orders')
    .values({ ...first, id, status: 'succeed', provider_ref: n.invoiceRef, task_id: '', created_at: now, updated_at: now, fulfilled_at: now })
    .execute();
  await applyGrant(trx, sub.user_id, first.grant_spec, { source: 'order', sourceId: id }, now);
  await trx.updateTable('subscriptions').set({ current_period_end: Math.max(sub.current_period_end, n.periodEnd), updated_at: now }).where('id', '=', sub.id).execute();
  return true;
}
