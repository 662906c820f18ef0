/** Task rows: every long or batched operation is a task with a phase the client can read back. */
import { PHASE } from '@haul/shared';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';

export interface NewTask {
  userId: string;
  type: string;
  phase: string;
  name: string;
  params?: Record<string, string>;
  fileId?: string;
  size?: number;
  /** The creating request's id, logged with the worker's lines for this task. */
  requestId?: string;
}

/** Inserts a task row and returns its id; a complete task starts at 100 %. */
export async function insertTask(db: Db, t: NewTask, now: number): Promise<string> {
  const id = newId();
  await db
    .insertInto('tasks')
    .values({
      id,
      user_id: t.userId,
      type: t.type,
      phase: t.phase,
      name: t.name,
      progress: t.phase === PHASE.COMPLETE ? 100 : 0,
      message: '',
      params: JSON.stringify(t.params ?? {}),
      file_id: t.fileId ?? '',
      size: t.size ?? 0,
      created_time: now,
      updated_time: now,
      request_id: t.requestId ?? null,
    })
    .execute();
  return id;
}

/** Records a batch operation that finished inside the request, and returns its task id. */
export function recordBatchTask(db: Db, userId: string, type: string, count: number, now: number): Promise<string> {
  return insertTask(db, { userId, type, phase: PHASE.COMPLETE, name: type, params: { count: String(count) } }, now);
}

/** A task of the user's, or file_not_found. */
export async function requireTask(db: Db, userId: string, id: string) {
  const row = await db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('The task does not exist.');
  return row;
}
