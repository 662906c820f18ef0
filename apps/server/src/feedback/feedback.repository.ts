/** Feedback rows: written with their screenshot's blob reference, read by author or by time, erased with the account. */
import type { Db } from '../db/database.js';
import { newestFirstPage } from '../db/newest-first.js';
import type { FeedbackTable } from '../db/schema-feedback.js';
import { addBlobRefs, releaseBlobRefs } from '../storage/blobs.repository.js';

export type FeedbackRow = FeedbackTable;

/** Keeps a message; its screenshot's blob gains its reference in the same transaction. */
export async function insertFeedback(db: Db, row: FeedbackRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('feedback').values(row).execute();
    if (row.screenshot_hash) await addBlobRefs(trx, row.screenshot_hash, row.screenshot_size, 1, row.created_at);
  });
}

/** One message: the author's own when `userId` is given (another's answers as missing). */
export function findFeedback(db: Db, id: string, userId?: string): Promise<FeedbackRow | undefined> {
  let q = db.selectFrom('feedback').selectAll().where('id', '=', id);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  return q.executeTakeFirst();
}

/** A page newest first: of one author, or everyone's (of one status when given). */
export function listFeedback(db: Db, q: { userId?: string; status?: string; limit: number; pageToken?: string }) {
  let query = db.selectFrom('feedback').selectAll();
  if (q.userId !== undefined) query = query.where('user_id', '=', q.userId);
  if (q.status) query = query.where('status', '=', q.status);
  return newestFirstPage(query, { listing: q.userId !== undefined ? 'own-feedback' : 'feedback', column: 'created_at', limit: q.limit, pageToken: q.pageToken });
}

/** Changes a message's answer or status; answers the row as it now is. */
export async function updateFeedback(db: Db, id: string, change: Partial<Pick<FeedbackRow, 'status' | 'answer' | 'answered_by' | 'answered_at'>>, now: number): Promise<void> {
  await db.updateTable('feedback').set({ ...change, updated_at: now }).where('id', '=', id).execute();
}

/**
 * Erases up to `chunk` of an account's messages with their screenshots' references, in one transaction; the blobs
 * left unreferenced go with the periodic purge. RETURNING counts only the rows this statement removed, so two
 * erasures of one account never release a reference twice. Answers how many rows it found.
 */
export async function eraseAccountFeedback(db: Db, userId: string, chunk: number, now: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ids = (await trx.selectFrom('feedback').select('id').where('user_id', '=', userId).limit(chunk).execute()).map((r) => r.id);
    if (!ids.length) return 0;
    const gone = await trx.deleteFrom('feedback').where('user_id', '=', userId).where('id', 'in', ids).returning(['screenshot_hash']).execute();
    const refs = new Map<string, number>();
    for (const { screenshot_hash: h } of gone) if (h) refs.set(h, (refs.get(h) ?? 0) + 1);
    await releaseBlobRefs(trx, refs, now);
    return ids.length;
  });
}
