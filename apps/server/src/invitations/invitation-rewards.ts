/**
 * Recording an invitation when the invited account is made, in the transaction that makes it, and rewarding both
 * sides with premium days unless one of the abuse rules says no. Every rule is read or enforced in the database:
 * - one invitation per account (unique invitee), and an address rewarded once is never rewarded again under a new
 *   account (the invitations outlive deleted accounts);
 * - no reward when the new account signs up from an address the inviter used in the last 30 days (their own second
 *   account, most likely);
 * - at most ADDRESS_DAILY_REWARDS rewarded sign-ups per client address (per /64 for IPv6) per day;
 * - at most HAUL_INVITE_MAX_REWARDS rewarded invitations per inviter per calendar month.
 * The caps are conditional counters (reward-slots.ts), so sign-ups racing with one code cannot pass them.
 */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { InviteRewardReason } from '@haul/shared';
import { newId, sha256Hex } from '../lib/ids.js';
import { dayOf, monthOf } from '../lib/zoned-time.js';
import { clientKey } from '../limits/attempt-limiter.js';
import { applyGrant } from '../plans/grants.js';
import { normalEmail } from '../accounts/users.repository.js';
import { findInviter } from './invite-codes.js';
import { giveBackSlot, takeSlot, type SlotKey } from './reward-slots.js';

/** Rewarded sign-ups one client address may make per day, across inviters: a household or an office, not a farm. */
export const ADDRESS_DAILY_REWARDS = 3;
/** How far back the inviter's sign-ins count as "their" addresses. */
const SAME_ADDRESS_WINDOW_MS = 30 * 86_400_000;

/** What the inviter is shown of the invited address: its first two letters and the domain (an***@example.com). */
export function maskAddress(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  const domain = at < 0 ? '' : email.slice(at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***${domain}`;
}

/** The inviter's cap for the month of `now`. */
export const inviterSlot = (ctx: AppContext, inviterId: string, now: number): SlotKey => ({ scope: `u:${inviterId}`, period: monthOf(now, ctx.config.timeZone).key });

/** Why this invitation earns nothing, checking the rules that only read; null when the caps are next. */
async function readRules(ctx: AppContext, trx: Db, inviterId: string, emailHash: string, address: string, now: number): Promise<InviteRewardReason | null> {
  if (ctx.config.inviteRewardDays <= 0) return 'rewards_off';
  const before = await trx.selectFrom('invitations').select('id').where('invitee_email_hash', '=', emailHash).where('rewarded_at', 'is not', null).limit(1).executeTakeFirst();
  if (before) return 'invited_before';
  const mine = await trx
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', inviterId)
    .where('ip', '=', address)
    .where('last_used_at', '>=', now - SAME_ADDRESS_WINDOW_MS)
    .limit(1)
    .executeTakeFirst();
  return mine ? 'same_address' : null;
}

/** Takes the address's daily slot, then the inviter's monthly one; both or neither. */
async function takeCaps(ctx: AppContext, trx: Db, inviterId: string, address: string, now: number): Promise<InviteRewardReason | null> {
  const perAddress: SlotKey = { scope: `a:${sha256Hex(address)}`, period: dayOf(now, ctx.config.timeZone).key };
  if (!(await takeSlot(trx, perAddress, ADDRESS_DAILY_REWARDS))) return 'address_limit';
  if (await takeSlot(trx, inviterSlot(ctx, inviterId, now), ctx.config.inviteMaxRewards)) return null;
  await giveBackSlot(trx, perAddress);
  return 'monthly_limit';
}

export interface NewInvitee {
  id: string;
  email: string;
}

/**
 * Records that `invitee` (made in `trx`) came with `code`, and rewards both sides when the rules allow. A code that
 * names no live account is ignored: the sign-up goes on without an invitation.
 */
export async function recordInvitation(ctx: AppContext, trx: Db, invitee: NewInvitee, code: string | undefined, ip: string): Promise<void> {
  if (!code) return;
  const inviter = await findInviter(trx, code);
  if (!inviter || inviter.id === invitee.id) return;
  const now = ctx.clock.now();
  const address = clientKey(ip);
  const emailHash = sha256Hex(normalEmail(invitee.email));
  const reason = (await readRules(ctx, trx, inviter.id, emailHash, address, now)) ?? (await takeCaps(ctx, trx, inviter.id, address, now));
  const days = reason ? 0 : ctx.config.inviteRewardDays;
  const id = newId();
  await trx
    .insertInto('invitations')
    .values({
      id,
      inviter_id: inviter.id,
      invitee_id: invitee.id,
      invitee_label: maskAddress(invitee.email),
      invitee_email_hash: emailHash,
      created_at: now,
      reward_days: days,
      rewarded_at: reason ? null : now,
      unrewarded_reason: reason ?? '',
    })
    .execute();
  if (reason) return;
  // Sign-ups racing for one inviter wait on the inviter's slot row until this commits: the premium chain grows one at a time.
  await applyGrant(trx, inviter.id, `premium:${days}d`, { source: 'invite', sourceId: id }, now);
  await applyGrant(trx, invitee.id, `premium:${days}d`, { source: 'invite', sourceId: id }, now);
}
