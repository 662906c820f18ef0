/** The operator's hold on shares: a status with a reason, a save limit; and the blocked words. Each change recorded. */
import { SHARE_STATUS } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { recordAudit } from '../audit/audit.repository.js';
import { blockedWords, setBlockedWords } from '../shares/share-moderation.js';

export interface ShareHold {
  status?: 'OK' | 'AUDITING' | 'PROHIBITED' | 'SENSITIVE_RESOURCE';
  reason?: string;
  restore_limit?: number;
}

export async function moderateShare(ctx: AppContext, actor: { id: string; ip: string }, shareId: string, hold: ShareHold) {
  if (hold.status === undefined && hold.reason === undefined && hold.restore_limit === undefined) throw badInput('Give status, reason or restore_limit.');
  return ctx.db.transaction().execute(async (trx) => {
    const share = await trx.selectFrom('shares').selectAll().where('id', '=', shareId.toLowerCase()).where('status', '!=', SHARE_STATUS.DELETED).executeTakeFirst();
    if (!share) throw new HttpError(404, 'share_not_found', 'No share has that id (or it was cancelled).');
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
