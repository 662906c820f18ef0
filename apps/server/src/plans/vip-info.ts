/** What an account's plan looks like to the clients: premium, its grants, and the subscription that renews it. */
import { GRANT_KINDS, parseGrantSpec, type GrantItem, type GrantKind, type Subscription, type VipInfo } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { SubscriptionsTable } from '../db/schema.js';
import { toRfc3339 } from '../lib/time.js';
import { listDeductions } from './deductions.js';
import { trialStatus } from './trial.js';

const DAY_MS = 86_400_000;

export function grantItems(spec: string): GrantItem[] {
  return parseGrantSpec(spec).map((p) => ({ kind: p.kind, bytes: String(p.bytes), days: p.days ?? 0 }));
}

export function presentSubscription(row: SubscriptionsTable, product: { title?: string | null; kind?: string | null } | undefined): Subscription {
  return {
    id: row.id,
    product_id: row.product_id,
    title: product?.title ?? row.product_id,
    kind: (product?.kind ?? 'premium') as GrantKind,
    provider: row.provider,
    status: row.status as Subscription['status'],
    current_period_end: toRfc3339(row.current_period_end),
    created_at: toRfc3339(row.created_at),
  };
}

/** The account's subscriptions, active first, then canceled (still running), then ended; newest first within each. */
export async function listSubscriptions(ctx: AppContext, userId: string): Promise<Subscription[]> {
  const rows = await ctx.db
    .selectFrom('subscriptions')
    .leftJoin('products', 'products.id', 'subscriptions.product_id')
    .selectAll('subscriptions')
    .select(['products.title', 'products.kind'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
  const rank = { active: 0, canceled: 1, ended: 2 } as Record<string, number>;
  return rows.sort((a, b) => (rank[a.status] ?? 3) - (rank[b.status] ?? 3)).map((r) => presentSubscription(r, r));
}

/** For each kind of goods, the subscription of the account that renews it (the newest active one), if any. */
export async function subscriptionStatus(ctx: AppContext, userId: string) {
  const active = (await listSubscriptions(ctx, userId)).filter((s) => s.status === 'active');
  return GRANT_KINDS.map((kind) => {
    const subscription = active.find((s) => s.kind === kind) ?? null;
    return { kind, subscribed: !!subscription, subscription };
  });
}

export async function vipInfo(ctx: AppContext, userId: string): Promise<VipInfo> {
  const now = ctx.clock.now();
  const [user, grants, subscriptions, deductions] = await Promise.all([
    ctx.db.selectFrom('users').select('premium_expire').where('id', '=', userId).executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom('plan_grants')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
      .orderBy('created_at', 'desc')
      .execute(),
    listSubscriptions(ctx, userId),
    listDeductions(ctx, userId, now),
  ]);
  const expire = user.premium_expire ?? 0;
  const premium = expire > now;
  const status = premium ? ('ok' as const) : ('none' as const);
  const surplus = premium ? Math.ceil((expire - now) / DAY_MS) : 0;
  const live = subscriptions.find((s) => s.status !== 'ended') ?? null;
  return {
    status,
    premium,
    expire: premium ? toRfc3339(expire) : '',
    surplus_day: surplus,
    vip_item: [{ type: 'global', status, expire: premium ? toRfc3339(expire) : '', surplus_day: surplus }],
    grants: grants.map((g) => ({
      kind: g.kind as GrantItem['kind'],
      bytes: g.kind === 'premium' ? '0' : String(g.amount),
      starts_at: toRfc3339(g.starts_at),
      ends_at: g.ends_at === null ? '' : toRfc3339(g.ends_at),
      source: g.source as VipInfo['grants'][number]['source'],
    })),
    subscription: live,
    deductions,
    ...trialStatus(grants, user.premium_expire, now),
  };
}
