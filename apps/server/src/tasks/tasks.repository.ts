/** Task rows: every long or batched operation is a task with a phase the client can read back. */
import { PHASE } from '@haul/shared';
import type { Db } from '../db/database.js';
import { newestFirstPage } from '../db/newest-first.js';
import type { TaskRow } from '../db/schema.js';
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

/** The batch operations on files, each recorded as a task that is complete when it is made. */
export const BATCH_TYPES = ['batch_trash', 'batch_untrash', 'batch_delete', 'batch_move', 'batch_copy', 'batch_star', 'batch_unstar', 'empty_trash'] as const;
export type BatchType = (typeof BATCH_TYPES)[number];

/** Records a batch operation that finished inside the request, and returns its task id. */
export function recordBatchTask(db: Db, userId: string, type: BatchType, count: number, now: number): Promise<string> {
  return insertTask(db, { userId, type, phase: PHASE.COMPLETE, name: type, params: { count: String(count) } }, now);
}

/** A task of the user's, or file_not_found. */
export async function requireTask(db: Db, userId: string, id: string) {
  const row = await db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('The task does not exist.');
  return row;
}

/** A page of the user's tasks, newest first, of one type and phases or ids when given. */
export async function listTasks(
  db: Db,
  userId: string,
  q: { type?: string; phases?: string[]; ids?: string[]; limit: number; pageToken?: string },
): Promise<{ rows: TaskRow[]; nextPageToken: string }> {
  let query = db.selectFrom('tasks').selectAll().where('user_id', '=', userId);
  if (q.type) query = query.where('type', '=', q.type);
  if (q.phases) query = query.where('phase', 'in', q.phases.length ? q.phases : ['']);
  if (q.ids) query = query.where('id', 'in', q.ids.length ? q.ids : ['']);
  return newestFirstPage(query, { listing: 'tasks', column: 'created_time', limit: q.limit, pageToken: q.pageToken });
}

/** The user's tasks among `ids` (those that exist). */
export function tasksByIds(db: Db, userId: string, ids: string[]): Promise<TaskRow[]> {
  return db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('id', 'in', ids.length ? ids : ['']).execute();
}

/** The user's tasks of a type in any of `phases` (what clearing the transfer list removes). */
export function tasksInPhases(db: Db, userId: string, type: string, phases: string[]): Promise<TaskRow[]> {
  return db.selectFrom('tasks').selectAll().where('user_id', '=', userId).where('type', '=', type).where('phase', 'in', phases).execute();
}

export async function deleteTasks(db: Db, userId: string, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('tasks').where('user_id', '=', userId).where('id', 'in', ids).execute();
}
