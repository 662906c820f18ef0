/**
 * A task's params are written by more than one hand while it runs (the worker's progress, a torrent's files as they
 * land): each change is merged into the row's params as they are now, under the row's lock, never into a copy read
 * when the task was claimed.
 */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { parseParams } from '../lib/params.js';

/** The task row, locked for the transaction on PostgreSQL (SQLite's write transaction is alone already). */
export async function lockTask(ctx: AppContext, trx: Db, taskId: string) {
  const q = trx.selectFrom('tasks').select(['params', 'file_id', 'phase']).where('id', '=', taskId);
  return ctx.dialect === 'postgres' ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

/** Runs `write` with the task's current params, in one transaction with the row locked; undefined when it is gone. */
export function withTaskParams<T>(ctx: AppContext, taskId: string, write: (params: Record<string, string>, trx: Db) => Promise<T>): Promise<T | undefined> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await lockTask(ctx, trx, taskId);
    return row ? write(parseParams(row.params), trx) : undefined;
  });
}
