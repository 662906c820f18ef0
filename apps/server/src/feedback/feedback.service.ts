/**
 * Feedback: a person sends a message (with the page it is about and a screenshot), at most 10 an hour; an operator
 * answers, closes or reopens it, each change in the audit log, and an answer is mailed to its author after it is kept.
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { FeedbackStatus } from '@haul/shared';
import type { AppContext } from '../context.js';
import { recordAudit } from '../audit/audit.repository.js';
import { badInput, HttpError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { feedbackAnswerMessage } from './feedback-mail.js';
import { findFeedback, insertFeedback, updateFeedback, type FeedbackRow } from './feedback.repository.js';
import { readScreenshot } from './screenshot.js';

/** Ten messages at once, then one every six minutes: ten an hour, kept in the database for every process. */
export const FEEDBACK_POLICY: AttemptPolicy = { free: 9, baseDelayMs: 6 * 60_000, maxDelayMs: 6 * 60_000, fixed: true, forgetMs: 3_600_000 };

/** The key ends with the account (`|u:<id>`), so erasing the account forgets it too. */
export const feedbackLimitKey = (userId: string) => `feedback|u:${userId}`;

export const feedbackNotFound = (what = 'No message has that id.') => new HttpError(404, 'not_found', what);

// Control characters (line breaks in a page address, NUL) are dropped: the page is shown as one line of text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** Keeps a message; the screenshot is checked before anything is counted or stored. */
export async function sendFeedback(ctx: AppContext, userId: string, input: { message: string; where?: string; screenshot?: string }): Promise<FeedbackRow> {
  const message = input.message.trim();
  if (!message) throw badInput('Write a message.');
  const shot = input.screenshot ? readScreenshot(input.screenshot) : null;
  const now = ctx.clock.now();
  const wait = await takeAttempt(ctx.db, now, [[feedbackLimitKey(userId), FEEDBACK_POLICY]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many messages in the last hour.');
  // The bytes go first; a crash before the row leaves a blob no row names, which reconciliation removes.
  const blob = shot ? await ctx.blobs.put(Readable.from([shot.bytes])) : null;
  const row: FeedbackRow = {
    id: newId(),
    user_id: userId,
    message,
    page: (input.where ?? '').replace(CONTROL, '').trim(),
    screenshot_hash: blob?.hash ?? '',
    screenshot_type: shot?.type ?? '',
    screenshot_size: blob?.size ?? 0,
    status: 'open',
    answer: '',
    answered_by: '',
    answered_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertFeedback(ctx.db, row);
  return row;
}

export interface FeedbackChange {
  answer?: string;
  status?: 'open' | 'closed';
}

/** An operator's answer, close or reopen; answers the row as it now is. */
export async function changeFeedback(ctx: AppContext, actor: { id: string; ip: string }, id: string, change: FeedbackChange, log: FastifyBaseLogger): Promise<FeedbackRow> {
  if (change.answer === undefined && change.status === undefined) throw badInput('Nothing to change: give an answer or a status.');
  const answer = change.answer?.trim();
  if (change.answer !== undefined && !answer) throw badInput('The answer is empty.');
  const now = ctx.clock.now();
  const before = await ctx.db.transaction().execute(async (trx) => {
    const row = await findFeedback(trx, id);
    if (!row) throw feedbackNotFound();
    const status: FeedbackStatus = change.status ?? (answer ? 'answered' : (row.status as FeedbackStatus));
    await updateFeedback(trx, id, { status, ...(answer ? { answer, answered_by: actor.id, answered_at: now } : {}) }, now);
    const audit = (action: 'admin.feedback.answered' | 'admin.feedback.closed' | 'admin.feedback.reopened') =>
      recordAudit(trx, { action, subjectId: row.user_id, actorId: actor.id, ip: actor.ip, details: { feedback_id: id } }, now);
    if (answer) await audit('admin.feedback.answered');
    if (status === 'closed' && row.status !== 'closed') await audit('admin.feedback.closed');
    if (status === 'open' && row.status !== 'open') await audit('admin.feedback.reopened');
    return row;
  });
  if (answer) await mailAnswer(ctx, before, answer, log);
  return (await findFeedback(ctx.db, id))!;
}

/** Mails the answer to the author; the answer is kept and shown in Haul whether or not the mail goes out. */
async function mailAnswer(ctx: AppContext, row: FeedbackRow, answer: string, log: FastifyBaseLogger): Promise<void> {
  const user = await ctx.db.selectFrom('users').select('email').where('id', '=', row.user_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!user?.email) return;
  try {
    await ctx.mailer.send(feedbackAnswerMessage({ to: user.email, message: row.message, answer, locale: 'en' }));
  } catch (err) {
    log.warn({ err, feedback: row.id }, 'the answer to a feedback message was kept but could not be mailed');
  }
}
