/**
 * The operator's hold on shares: a share looked up by its id, a status with a reason, a save limit; and the blocked
 * words. Each change recorded.
 */
import { SHARE_STATUS, type AdminShareSchema, type Static } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { ShareRow } from '../db/schema.js';
import { HttpError, badInput } from '../http/errors.js';
import { toRfc3339 } from '../lib/time.js';
import { recordAudit } from '../audit/audit.repository.js';
import { linkStatus } from '../shares/share-scope.js';
import { blockedWords, setBlockedWords } from '../shares/share-moderation.js';

const shareNotFound = () => new HttpError(404, 'share_not_found', 'No share has that id (or it was cancelled).');

type AdminShare = Static<typeof AdminShareSchema>;

/** Live shares with their owner's address (the console never reads a pass code). */
const sharesWithOwner = (ctx: AppContext) =>
  ctx.db
    .selectFrom('shares')
    .leftJoin('users', (j) => j.onRef('users.id', '=', 'shares.user_id').on('users.deleted_at', 'is', null))
    .selectAll('shares')
    .select('users.email as owner_email')
    .where('shares.status', '!=', SHARE_STATUS.DELETED);

function presentAdminShare(ctx: AppContext, row: ShareRow & { owner_email: string | null }): AdminShare {
  const { owner_email: email, ...share } = row;
  return {
    share_id: share.id,
    title: share.title,
    user_id: share.user_id,
    user_email: email ?? '',
    share_to: share.kind,
    status: linkStatus(share, ctx.clock.now()),
    reason: share.moderation_reason,
    restore_limit: String(share.restore_limit),
    restore_count: String(share.restore_count),
    view_count: String(share.view_count),
    file_count: String(share.file_count),
    file_size: String(share.file_size),
    created_time: toRfc3339(share.created_time),
    expiration_at: share.expires_at === null ? '' : toRfc3339(share.expires_at),
  };
}

/** A share as the console shows it (never its pass code): its owner's address, how it is held, what visitors did. */
export async function shareDetail(ctx: AppContext, shareId: string): Promise<AdminShare> {
  const row = await sharesWithOwner(ctx).where('shares.id', '=', shareId.toLowerCase()).executeTakeFirst();
  if (!row) throw shareNotFound();
  return presentAdminShare(ctx, row);
}

/** The most viewed or most saved live shares (an index on each count: no scan of every share). */
export async function topShares(ctx: AppContext, order: 'views' | 'saves', limit: number): Promise<AdminShare[]> {
  const column = order === 'views' ? 'shares.view_count' : 'shares.restore_count';
  const rows = await sharesWithOwner(ctx).where(column, '>', 0).orderBy(column, 'desc').orderBy('shares.id').limit(limit).execute();
  return rows.map((r) => presentAdminShare(ctx, r));
}

export interface ShareHold {
  status?: 'OK' | 'AUDITING' | 'PROHIBITED' | 'SENSITIVE_RESOURCE';
  reason?: string;
  restore_limit?: number;
}

export async function moderateShare(ctx: AppContext, actor: { id: string; ip: string }, shareId: string, hold: ShareHold) {
  if (hold.status === undefined && hold.reason === undefined && hold.restore_limit === undefined) throw badInput('Give status, reason or restore_limit.');
  return ctx.db.transaction().execute(async (trx) => {
    const share = await trx.selectFrom('shares').selectAll().where('id', '=', shareId.toLowerCase()).where('status', '!=', SHARE_STATUS.DELETED).executeTakeFirst();
    if (!share) throw shareNotFound();
    const status = hold.status ?? share.status;
    // A share given back keeps no reason; a held one keeps its reason until a new one is given.
    const reason = status === SHARE_STATUS.OK ? '' : (hold.reason?.trim() ?? share.moderation_reason);
    const restoreLimit = hold.restore_limit ?? share.restore_limit;
    await trx.updateTable('shares').set({ status, moderation_reason: reason, restore_limit: restoreLimit, updated_time: ctx.clock.now() }).where('id', '=', share.id).execute();
    const details = { share_id: share.id, title: share.title, status: { from: share.status, to: status }, ...(reason ? { reason } : {}), ...(restoreLimit !== share.restore_limit ? { restore_limit: { from: share.restore_limit, to: restoreLimit } } : {}) };
    await recordAudit(trx, { action: 'admin.share.moderated', subjectId: share.user_id, actorId: actor.id, ip: actor.ip, details }, ctx.clock.now());
    return { share_id: share.id, status, reason, restore_limit: String(restoreLimit), user_id: share.user_id };
  });
}

export const getBlockedWords = async (ctx: AppContext) => ({ words: await blockedWords(ctx.db) });

export async function replaceBlockedWords(ctx: AppContext, actor: { id: string; ip: string }, words: string[]) {
  const before = await blockedWords(ctx.db);
  const after = await setBlockedWords(ctx.db, words, ctx.clock.now());
  await recordAudit(ctx.db, { action: 'admin.blocked_words.changed', subjectId: actor.id, actorId: actor.id, ip: actor.ip, details: { count: { from: before.length, to: after.length } } }, ctx.clock.now());
  return { words: after };
}
