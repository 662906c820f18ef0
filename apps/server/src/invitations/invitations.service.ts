/** What the invite pages show: the account's code and link, what rewards are left this month, who joined, what it earned. */
import type { InviteInfo, Invited, InviteRewardReason } from '@haul/shared';
import type { AppContext } from '../context.js';
import { publicUrl } from '../http/public-url.js';
import { toRfc3339 } from '../lib/time.js';
import { monthOf } from '../lib/zoned-time.js';
import { inviteCodeOf } from './invite-codes.js';
import { inviterSlot } from './invitation-rewards.js';
import { slotsTaken } from './reward-slots.js';

const LISTED = 100;
const DAY_MS = 86_400_000;

/** The sign-in page with the code: where an invited person lands. */
export const inviteLink = (ctx: AppContext, code: string) => `${publicUrl(ctx)}/drive/login?invitation-code=${encodeURIComponent(code)}`;

export async function inviteInfo(ctx: AppContext, userId: string): Promise<InviteInfo> {
  const now = ctx.clock.now();
  const code = await inviteCodeOf(ctx.db, userId, now);
  const limit = ctx.config.inviteMaxRewards;
  const [rows, totals, taken] = await Promise.all([
    ctx.db
      .selectFrom('invitations')
      .leftJoin('users', 'users.id', 'invitations.invitee_id')
      .select(['invitations.invitee_label', 'invitations.created_at', 'invitations.reward_days', 'invitations.rewarded_at', 'invitations.unrewarded_reason', 'users.deleted_at', 'users.id as live_id'])
      .where('invitations.inviter_id', '=', userId)
      .orderBy('invitations.created_at', 'desc')
      .orderBy('invitations.id', 'desc')
      .limit(LISTED)
      .execute(),
    ctx.db
      .selectFrom('invitations')
      .select((eb) => [
        eb.fn.countAll<number>().as('invited'),
        eb.fn.count<number>('rewarded_at').as('rewarded'),
        eb.fn.coalesce(eb.fn.sum<number>('reward_days'), eb.val(0)).as('days'),
      ])
      .where('inviter_id', '=', userId)
      .executeTakeFirstOrThrow(),
    slotsTaken(ctx.db, inviterSlot(ctx, userId, now)),
  ]);
  const invited: Invited[] = rows.map((r) => ({
    name: r.invitee_label,
    joined_at: toRfc3339(r.created_at),
    rewarded: r.rewarded_at !== null,
    reward_days: Number(r.reward_days),
    reason: r.unrewarded_reason as InviteRewardReason,
    account_deleted: r.live_id === null || r.deleted_at !== null,
  }));
  return {
    invitation_code: code,
    link: inviteLink(ctx, code),
    reward_days: ctx.config.inviteRewardDays,
    monthly_limit: limit,
    rewards_left: limit > 0 ? Math.max(0, limit - taken) : -1,
    resets_at: toRfc3339(monthOf(now, ctx.config.timeZone).endsAt),
    invited,
    total_invited: Number(totals.invited),
    total_rewarded: Number(totals.rewarded),
    days_earned: Number(totals.days),
  };
}

/** The premium this account got from invitations, either side, newest first (a grant taken back is left out). */
export async function inviteRewards(ctx: AppContext, userId: string) {
  const rows = await ctx.db
    .selectFrom('plan_grants')
    .innerJoin('invitations', 'invitations.id', 'plan_grants.source_id')
    .select(['plan_grants.amount', 'plan_grants.created_at', 'plan_grants.ends_at', 'invitations.invitee_id'])
    .where('plan_grants.user_id', '=', userId)
    .where('plan_grants.source', '=', 'invite')
    .where('plan_grants.revoked_at', 'is', null)
    .orderBy('plan_grants.created_at', 'desc')
    .execute();
  const rewards = rows.map((r) => ({
    role: r.invitee_id === userId ? ('invitee' as const) : ('inviter' as const),
    days: Math.round(Number(r.amount) / DAY_MS),
    granted_at: toRfc3339(r.created_at),
    ends_at: toRfc3339(r.ends_at),
  }));
  return { rewards, total_days: rewards.reduce((n, r) => n + r.days, 0) };
}
