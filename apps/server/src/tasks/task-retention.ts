/**
 * Finished tasks that serve nobody any more, removed by the hourly purge so `tasks` does not grow with every file
 * moved or uploaded. Cloud downloads and unpackings are the person's own record in the transfer list: they stay
 * until their owner deletes them.
 */
import { PHASE } from '@haul/shared';
import type { Db } from '../db/database.js';
import { UPLOAD } from '../uploads/uploads.service.js';
import { BATCH_TYPES } from './tasks.repository.js';

const DAY = 86_400_000;
/** A batch operation finishes inside its request: its record is only there for a client to read back at once. */
export const BATCH_RECORD_DAYS = 1;
/**
 * An upload lives at most 7 days; its finished task answers a client that asks after a crash (placedUpload) and an
 * API reader of its history. The web app keeps its own upload list.
 */
export const FINISHED_UPLOAD_DAYS = 30;
/** Rows removed a statement, so a backlog never holds a long lock. */
const CHUNK = 1000;

/** Removes tasks of `types` in `phases` created and last changed before `before`; returns how many. */
async function removeFinished(db: Db, types: readonly string[], phases: string[], before: number): Promise<number> {
  let removed = 0;
  for (;;) {
    // Seeks tasks_type_phase_created; a task still changed recently (finished late) waits for a later run.
    const ids = await db
      .selectFrom('tasks')
      .select('id')
      .where('type', 'in', types)
      .where('phase', 'in', phases)
      .where('created_time', '<', before)
      .where('updated_time', '<', before)
      .limit(CHUNK)
      .execute();
    if (ids.length === 0) return removed;
    const res = await db.deleteFrom('tasks').where('id', 'in', ids.map((r) => r.id)).executeTakeFirst();
    removed += Number(res.numDeletedRows);
    if (ids.length < CHUNK) return removed;
  }
}

/** The hourly purge's step: batch records after a day, finished uploads after 30 days. Returns how many went. */
export async function expireFinishedTasks(db: Db, now: number): Promise<number> {
  const batches = await removeFinished(db, BATCH_TYPES, [PHASE.COMPLETE], now - BATCH_RECORD_DAYS * DAY);
  const uploads = await removeFinished(db, [UPLOAD], [PHASE.COMPLETE, PHASE.ERROR], now - FINISHED_UPLOAD_DAYS * DAY);
  return batches + uploads;
}
