/**
 * Reports of shares: anyone who can open a share tells the operator what is wrong with it (10 an hour per network,
 * counted in the database); the operator lists the queue and handles a report, which holds the share when asked and
 * closes every open report of that share at once; a feedback message naming a share can join the queue as a report.
 * Each handling is recorded in the audit log.
 */
import { REPORT_MESSAGE_MAX, SHARE_STATUS, sharesNamedIn, type ReportReason, type ReportStatus } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { ShareReportsTable } from '../db/schema-reports.js';
import { recordAudit } from '../audit/audit.repository.js';
import { HttpError, badInput } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { moderateShare, type ShareHold } from '../admin/admin-shares.service.js';
import { markFileIn } from '../admin/admin-files.service.js';
import type { PassCodeGuard } from './pass-code-guard.js';
import { requireInShare } from './share-scope.js';
import { requireOpen, type ShareAccess } from './share-visits.service.js';

export type ShareReportRow = ShareReportsTable;

/** Ten reports at once from one network, then one every six minutes: ten an hour. */
const REPORT_POLICY: AttemptPolicy = { free: 9, baseDelayMs: 6 * 60_000, maxDelayMs: 6 * 60_000, fixed: true, forgetMs: 3_600_000 };

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** POST share/report: the share must be open to the caller, as to look at it; the item, when named, must be in it. */
export async function reportShare(
  ctx: AppContext,
  guard: PassCodeGuard,
  a: ShareAccess,
  input: { reason: ReportReason; file_id?: string; message?: string },
): Promise<{ id: string }> {
  const { share, rootIds } = await requireOpen(ctx, guard, a, { items: true });
  const fileId = input.file_id?.trim() ?? '';
  if (fileId) await requireInShare(ctx.db, share, fileId, rootIds);
  const now = ctx.clock.now();
  const wait = await takeAttempt(ctx.db, now, [[`report|${clientKey(a.address)}`, REPORT_POLICY]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many reports from this network.');
  const row: ShareReportRow = {
    id: newId(),
    share_id: share.id,
    owner_id: share.user_id,
    file_id: fileId,
    reason: input.reason,
    message: (input.message ?? '').replace(CONTROL, '').trim(),
    reporter_id: a.callerId ?? '',
    status: 'open',
    note: '',
    handled_by: '',
    handled_at: null,
    created_at: now,
  };
  await ctx.db.insertInto('share_reports').values(row).execute();
  return { id: row.id };
}

export const reportNotFound = () => new HttpError(404, 'not_found', 'No report has that id.');

export interface ReportHandling {
  status: ReportStatus;
  hold?: NonNullable<ShareHold['status']>;
  reason?: string;
  note?: string;
  /** With resolved, on a report naming a file: mark that file not shareable with `reason`. */
  mark_file?: boolean;
}

/**
 * Handles a report. Resolving or dismissing closes every open report of its share (they are about the same thing);
 * a hold is the share's own moderation call, made first so a share that is gone refuses before anything closes.
 * Reopening touches this report only. Answers the report and how many were closed.
 */
export async function handleReport(ctx: AppContext, actor: { id: string; ip: string }, id: string, h: ReportHandling): Promise<{ row: ShareReportRow; closed: number }> {
  const report = await ctx.db.selectFrom('share_reports').selectAll().where('id', '=', id).executeTakeFirst();
  if (!report) throw reportNotFound();
  if (h.hold && h.status !== 'resolved') throw badInput('A share is held only when resolving a report: give status resolved with hold.');
  if (h.mark_file && h.status !== 'resolved') throw badInput('A file is marked only when resolving a report: give status resolved with mark_file.');
  if (h.mark_file && !report.file_id) throw badInput('This report names no file: hold the share instead.');
  if (h.hold) {
    const share = await ctx.db.selectFrom('shares').select('status').where('id', '=', report.share_id).executeTakeFirst();
    if (!share || share.status === SHARE_STATUS.DELETED) throw badInput('The share is gone: dismiss or resolve the report without a hold.');
    await moderateShare(ctx, actor, report.share_id, { status: h.hold, reason: h.reason ?? '' });
  }
  const now = ctx.clock.now();
  const note = (h.note ?? '').trim();
  return ctx.db.transaction().execute(async (trx) => {
    // The file mark in the same transaction as the closing: a file that is gone refuses, and nothing closes.
    if (h.mark_file) await markFileIn(trx, actor, report.file_id, { sensitive: true, reason: h.reason }, now);
    let closed = 0;
    if (h.status === 'open') {
      await trx.updateTable('share_reports').set({ status: 'open', note, handled_by: '', handled_at: null }).where('id', '=', id).execute();
    } else {
      const set = { status: h.status, note, handled_by: actor.id, handled_at: now };
      const open = await trx.updateTable('share_reports').set(set).where('share_id', '=', report.share_id).where('status', '=', 'open').executeTakeFirst();
      closed = Number(open.numUpdatedRows);
      // A handled report handled again (a note changed, resolved after dismissed) keeps its place in the log.
      if (report.status !== 'open') await trx.updateTable('share_reports').set(set).where('id', '=', id).execute();
    }
    const details = { report_id: id, share_id: report.share_id, status: { from: report.status, to: h.status }, ...(h.hold ? { hold: h.hold } : {}), ...(h.mark_file ? { file_id: report.file_id } : {}), ...(closed ? { closed } : {}) };
    await recordAudit(trx, { action: 'admin.report.handled', subjectId: report.owner_id, actorId: actor.id, ip: actor.ip, details }, now);
    const row = await trx.selectFrom('share_reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { row, closed };
  });
}

/**
 * POST /admin/v1/feedback/:id/report: a feedback message that names a share (a link in its words, or the share page
 * it was sent from) becomes a report of that share, its sender the reporter and its words the report's.
 */
export async function reportFromFeedback(ctx: AppContext, actor: { id: string; ip: string }, feedbackId: string, input: { share_id: string; reason: ReportReason }): Promise<{ id: string }> {
  const feedback = await ctx.db.selectFrom('feedback').select(['id', 'user_id', 'message', 'page']).where('id', '=', feedbackId).executeTakeFirst();
  if (!feedback) throw new HttpError(404, 'not_found', 'No feedback message has that id.');
  if (!sharesNamedIn(`${feedback.message}\n${feedback.page}`).includes(input.share_id)) throw badInput('The message does not name that share.');
  const share = await ctx.db.selectFrom('shares').select(['id', 'user_id', 'status']).where('id', '=', input.share_id).executeTakeFirst();
  if (!share || share.status === SHARE_STATUS.DELETED) throw badInput('That share does not exist any more.');
  const now = ctx.clock.now();
  const row: ShareReportRow = {
    id: newId(),
    share_id: share.id,
    owner_id: share.user_id,
    file_id: '',
    reason: input.reason,
    message: feedback.message.replace(CONTROL, '').trim().slice(0, REPORT_MESSAGE_MAX),
    reporter_id: feedback.user_id,
    status: 'open',
    note: '',
    handled_by: '',
    handled_at: null,
    created_at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await trx.insertInto('share_reports').values(row).execute();
    await recordAudit(trx, { action: 'admin.report.from_feedback', subjectId: share.user_id, actorId: actor.id, ip: actor.ip, details: { report_id: row.id, share_id: share.id, feedback_id: feedback.id } }, now);
  });
  return { id: row.id };
}
