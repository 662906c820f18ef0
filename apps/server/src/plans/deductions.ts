/**
 * What was taken back from an account (the premium-deduct notice): read from the grants themselves. A revoked grant
 * keeps its window as it stood when revoked (revokeGrants moves only live grants), so what it had left then is
 * `ends_at - max(starts_at, revoked_at)`; no second record is kept that could disagree with the chain.
 */
import type { Deduction, GrantKind } from '@haul/shared';
import type { AppContext } from '../context.js';
import { toRfc3339 } from '../lib/time.js';

const DAY_MS = 86_400_000;
/** The notice is about recent takings: older ones are history, in the orders list. */
export const DEDUCTIONS_SHOWN_MS = 90 * DAY_MS;
const DEDUCTIONS_MAX = 20;

export async function listDeductions(ctx: AppContext, userId: string, now: number): Promise<Deduction[]> {
  const rows = await ctx.db
    .selectFrom('plan_grants')
    .leftJoin('orders', (j) => j.onRef('orders.id', '=', 'plan_grants.source_id').on('plan_grants.source', '=', 'order'))
    .leftJoin('products', 'products.id', 'orders.product_id')
    .select(['plan_grants.kind', 'plan_grants.amount', 'plan_grants.starts_at', 'plan_grants.ends_at', 'plan_grants.source', 'plan_grants.revoked_at', 'orders.product_id', 'products.title'])
    .where('plan_grants.user_id', '=', userId)
    .where('plan_grants.revoked_at', '>', now - DEDUCTIONS_SHOWN_MS)
    .orderBy('plan_grants.revoked_at', 'desc')
    .orderBy('plan_grants.id')
    .execute();
  const out: Deduction[] = [];
  for (const r of rows) {
    const at = Number(r.revoked_at);
    const endsAt = r.ends_at === null ? null : Number(r.ends_at);
    // Nothing was left of it when taken back: nothing to tell.
    if (endsAt !== null && endsAt <= at) continue;
    const premium = r.kind === 'premium';
    const left = premium ? endsAt! - Math.max(Number(r.starts_at), at) : 0;
    out.push({
      kind: r.kind as GrantKind,
      days: premium ? Math.ceil(left / DAY_MS) : 0,
      bytes: premium ? '0' : String(r.amount),
      reason: r.source === 'order' ? 'refund' : 'revoked',
      title: r.source === 'order' ? (r.title ?? r.product_id ?? '') : '',
      at: toRfc3339(at),
    });
    if (out.length === DEDUCTIONS_MAX) break;
  }
  return out;
}
