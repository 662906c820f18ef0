/** The console's invitations: every sign-up made with a code, newest first, with both accounts and the reward. */
import type { AdminInvitation, InviteRewardReason } from '@haul/shared';
import type { AppContext } from '../context.js';
import { newestFirstPage } from '../db/newest-first.js';
import { toRfc3339 } from '../lib/time.js';

const account = (id: string, email: string | null, deletedAt: number | null) => (email !== null && deletedAt === null ? { id, email } : null);

export async function listInvitations(ctx: AppContext, q: { userId?: string; limit: number; pageToken?: string }) {
  let rows = ctx.db.selectFrom('invitations').selectAll();
  let totals = ctx.db.selectFrom('invitations');
  if (q.userId) {
    rows = rows.where('inviter_id', '=', q.userId);
    totals = totals.where('inviter_id', '=', q.userId);
  }
  const [page, sums] = await Promise.all([
    newestFirstPage(rows, { listing: q.userId ? `admin-invitations:${q.userId}` : 'admin-invitations', column: 'created_at', limit: q.limit, pageToken: q.pageToken }),
    totals
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('rewarded_at').as('rewarded'), eb.fn.coalesce(eb.fn.sum<number>('reward_days'), eb.val(0)).as('days')])
      .executeTakeFirstOrThrow(),
  ]);
  const ids = [...new Set(page.rows.flatMap((r) => [r.inviter_id, r.invitee_id]))];
  const people = ids.length ? await ctx.db.selectFrom('users').select(['id', 'email', 'deleted_at']).where('id', 'in', ids).execute() : [];
  const byId = new Map(people.map((p) => [p.id, p]));
  const ref = (id: string) => {
    const p = byId.get(id);
    return p ? account(p.id, p.email, p.deleted_at) : null;
  };
  const invitations: AdminInvitation[] = page.rows.map((r) => ({
    id: r.id,
    created_time: toRfc3339(r.created_at),
    inviter: ref(r.inviter_id),
    invitee: ref(r.invitee_id),
    invitee_label: r.invitee_label,
    rewarded: r.rewarded_at !== null,
    reward_days: Number(r.reward_days),
    reason: r.unrewarded_reason as InviteRewardReason,
  }));
  return { invitations, next_page_token: page.nextPageToken, total: Number(sums.total), rewarded: Number(sums.rewarded), reward_days: Number(sums.days) };
}
