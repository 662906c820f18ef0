/** Task rows: every long or batched operation is a task with a phase the client can read back. */
import { PHASE } from '@haul/shared';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';

/** Records a batch operation that finished inside the request, and returns its task id. */
export async function recordBatchTask(db: Db, userId: string, type: string, count: number, now: number): Promise<string> {
  const id = newId();
  await db
    .insertInto('tasks')
    .values({
      id,
      user_id: userId,
      type,
      phase: PHASE.COMPLETE,
      name: type,
      progress: 100,
      message: '',
      params: JSON.stringify({ count: String(count) }),
      file_id: '',
      created_time: now,
      updated_time: now,
    })
    .execute();
  return id;
}

/** A task of the user's, or file_not_found. */
export async function requireTask(db: Db, userId: string, id: string) {
  const row = await db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('The task does not exist.');
  return row;
}
