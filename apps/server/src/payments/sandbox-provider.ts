/**
 * The sandbox provider: a checkout page of our own (/drive/payment/sandbox/:orderId) where the person pays, declines or
 * cancels without money, for trying plans on a test install. It plays the provider's part: its decision is a notice
 * like a card network's would be, and its subscriptions renew by themselves at each period's end (renewSandbox).
 * Off unless the operator sets HAUL_PAY_SANDBOX.
 */
import type { AppContext } from '../context.js';
import { applyNotice, periodEndAfter } from './fulfilment.js';
import type { Checkout, CheckoutInput, OrderRow, PaymentNotice, PaymentProvider } from './provider.js';

export const SANDBOX = 'sandbox';

export class SandboxProvider implements PaymentProvider {
  readonly id = SANDBOX;
  readonly name = 'Sandbox (no money)';
  readonly recurring = true;
  readonly sandbox = true;

  async startCheckout({ order, successUrl }: CheckoutInput): Promise<Checkout> {
    // The page returns to the status page itself; successUrl carries the way back.
    const status = new URL(successUrl);
    const page = new URL(`/drive/payment/sandbox/${order.id}`, status);
    page.search = status.search;
    return { redirectUrl: page.toString(), providerRef: `sbx_${order.id}` };
  }

  async cancelSubscription(): Promise<void> {}

  async refund(): Promise<void> {}
}

export type SandboxOutcome = 'pay' | 'decline' | 'cancel';

/** The notice the sandbox checkout's decision makes; subscriptions get a provider reference of their own. */
export function sandboxNotice(order: OrderRow, outcome: SandboxOutcome, now: number): PaymentNotice {
  const eventId = `${outcome}:${order.id}`;
  if (outcome === 'decline') return { type: 'failed', eventId, orderId: order.id };
  if (outcome === 'cancel') return { type: 'closed', eventId, orderId: order.id };
  const sub = order.interval ? { subscriptionRef: `sbx_sub_${order.id}`, periodEnd: periodEndAfter(now, order.interval) } : {};
  return { type: 'paid', eventId, orderId: order.id, amountMinor: order.amount_minor, currency: order.currency, ...sub };
}

/**
 * Renews sandbox subscriptions whose period ended, and ends canceled ones, as a provider's billing run would. Run by
 * the periodic jobs; answers how many moved.
 */
export async function renewSandbox(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const due = await ctx.db
    .selectFrom('subscriptions')
    .innerJoin('orders', (j) => j.onRef('orders.subscription_id', '=', 'subscriptions.id'))
    .select(['subscriptions.provider_ref', 'subscriptions.status', 'subscriptions.current_period_end', 'orders.amount_minor', 'orders.currency', 'orders.interval'])
    .where('subscriptions.provider', '=', SANDBOX)
    .where('subscriptions.status', 'in', ['active', 'canceled'])
    .where('subscriptions.current_period_end', '<=', now)
    .execute();
  const seen = new Set<string>();
  let moved = 0;
  for (const s of due) {
    if (seen.has(s.provider_ref)) continue;
    seen.add(s.provider_ref);
    const end = s.current_period_end;
    // The invoice names its subscription: payments are unique per provider, and periods of two subscriptions may end alike.
    const notice: PaymentNotice =
      s.status === 'canceled'
        ? { type: 'subscription_ended', eventId: `end:${s.provider_ref}`, subscriptionRef: s.provider_ref }
        : { type: 'renewed', eventId: `renew:${s.provider_ref}:${end}`, subscriptionRef: s.provider_ref, invoiceRef: `sbx_inv_${s.provider_ref}_${end}`, periodEnd: periodEndAfter(end, s.interval), amountMinor: s.amount_minor, currency: s.currency };
    if ((await applyNotice(ctx, SANDBOX, notice)) === 'applied') moved++;
  }
  return moved;
}
