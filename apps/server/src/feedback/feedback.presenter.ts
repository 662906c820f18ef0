/** Feedback rows → the wire: the author's view, and the operator's with the sender's address (one query a page). */
import type { AdminFeedbackSchema, FeedbackSchema, FeedbackStatus, Static } from '@haul/shared';
import type { Db } from '../db/database.js';
import { toRfc3339 } from '../lib/time.js';
import type { FeedbackRow } from './feedback.repository.js';

type Feedback = Static<typeof FeedbackSchema>;
type AdminFeedback = Static<typeof AdminFeedbackSchema>;

export function presentFeedback(r: FeedbackRow): Feedback {
  return {
    id: r.id,
    message: r.message,
    where: r.page,
    has_screenshot: r.screenshot_hash !== '',
    status: r.status as FeedbackStatus,
    answer: r.answer,
    answered_time: r.answered_at === null ? '' : toRfc3339(r.answered_at),
    created_time: toRfc3339(r.created_at),
    updated_time: toRfc3339(r.updated_at),
  };
}

/** The operator's view of a page of rows, each sender named by address. */
export async function presentForOperator(db: Db, rows: FeedbackRow[]): Promise<AdminFeedback[]> {
  const ids = [...new Set(rows.map((r) => r.user_id))];
  const emails = new Map(ids.length ? (await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).where('deleted_at', 'is', null).execute()).map((u) => [u.id, u.email]) : []);
  return rows.map((r) => ({
    ...presentFeedback(r),
    user_id: r.user_id,
    user_email: emails.get(r.user_id) ?? '',
    screenshot_type: r.screenshot_type,
    screenshot_size: String(r.screenshot_size),
  }));
}
