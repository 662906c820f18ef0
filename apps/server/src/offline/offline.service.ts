/** Offline download tasks: creating them from links, retrying, and what a finished fetch leaves in the drive. */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import { requireTargetFolder } from '../files/files.repository.js';
import { placeFileIn } from '../files/files.service.js';
import { parseParams } from '../files/files.presenter.js';
import { requireMonthlyRoom } from '../accounts/traffic.js';
import { HttpError, badInput } from '../http/errors.js';
import { insertTask, requireTask } from '../tasks/tasks.repository.js';
import { isPublicAddress, parseHttpLink } from './network-guard.js';

export const OFFLINE = 'offline';

/** Where the bytes of a download in progress are kept (resumed from after a restart). */
export function offlinePartPath(dataDir: string, taskId: string): string {
  return join(dataDir, 'offline', `${taskId}.part`);
}

/** Where a link comes from, for the platform filter and icons. */
export function platformOf(url: URL): string {
  const host = url.hostname.replace(/^www\./, '');
  const known: [RegExp, string][] = [
    [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
    [/(^|\.)(twitter\.com|x\.com)$/, 'twitter'],
    [/(^|\.)tiktok\.com$/, 'tiktok'],
    [/(^|\.)(t\.me|telegram\.org)$/, 'telegram'],
    [/(^|\.)facebook\.com$/, 'facebook'],
  ];
  return known.find(([re]) => re.test(host))?.[1] ?? 'other';
}

/** Checks one link; a private address literal is refused at once (names are checked when connecting). */
function checkLink(ctx: AppContext, raw: string): URL {
  if (/^magnet:/i.test(raw)) throw badInput('Magnet links and torrents are not supported on this server yet; paste an http or https link.');
  const url = parseHttpLink(raw);
  if (!url) throw badInput(`"${raw.slice(0, 200)}" is not an http or https link.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!ctx.config.allowPrivateNetwork && (host === 'localhost' || (isIP(host) && !isPublicAddress(host)))) {
    throw badInput('The link points to a private or reserved network address; Haul does not fetch from those.');
  }
  return url;
}

/** Creates one task a link (one link a line), refusing the lot if any is bad or the daily limit is reached. */
export async function createOfflineTasks(ctx: AppContext, userId: string, input: { text: string; parentId: string; name?: string }): Promise<TaskRow[]> {
  const links = input.text.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);
  if (links.length === 0) throw badInput('Paste at least one link.');
  if (links.length > 100) throw badInput('Paste at most 100 links at once.');
  const urls = links.map((l) => checkLink(ctx, l));
  await requireMonthlyRoom(ctx, userId, 'offline', 1);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    await requireTargetFolder(trx, userId, input.parentId);
    const today = await trx
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('type', '=', OFFLINE)
      .where('created_time', '>', now - 86_400_000)
      .executeTakeFirstOrThrow();
    if (Number(today.n) + urls.length > ctx.config.dailyTaskLimit) {
      throw new HttpError(403, 'task_daily_create_limit', `You can add ${ctx.config.dailyTaskLimit} cloud downloads a day; try again tomorrow or upgrade.`);
    }
    const ids: string[] = [];
    for (const url of urls) {
      const guess = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '') || url.hostname;
      const name = urls.length === 1 && input.name ? input.name : guess;
      const params = { url: url.toString(), parent_id: input.parentId, platform: platformOf(url), ...(urls.length === 1 && input.name ? { name: input.name } : {}) };
      ids.push(await insertTask(trx, { userId, type: OFFLINE, phase: PHASE.PENDING, name, params }, now));
    }
    const rows = await trx.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
    return ids.map((id) => rows.find((r) => r.id === id)!);
  });
}

/** POST task {id, create_type: RETRY}: a failed download starts again as a new task. */
export async function retryTask(ctx: AppContext, userId: string, id: string): Promise<TaskRow> {
  const old = await requireTask(ctx.db, userId, id);
  if (old.type !== OFFLINE) throw badInput('Only cloud downloads can be retried.');
  if (old.phase !== PHASE.ERROR) throw badInput('Only a failed task can be retried.');
  const params = parseParams(old.params);
  const [task] = await createOfflineTasks(ctx, userId, { text: params.url ?? '', parentId: params.parent_id ?? '', name: params.name });
  await ctx.db.deleteFrom('tasks').where('id', '=', old.id).execute();
  return task!;
}

/**
 * PATCH tasks/{id} {phase}: pause a waiting or running download (its bytes are kept) or put a paused one back in the
 * queue, where it continues from the bytes it has.
 */
export async function setOfflinePhase(ctx: AppContext, userId: string, id: string, phase: string): Promise<TaskRow> {
  const task = await requireTask(ctx.db, userId, id);
  if (task.type !== OFFLINE) throw badInput('Only cloud downloads can be paused and continued.');
  const from = phase === PHASE.PAUSED ? [PHASE.PENDING, PHASE.RUNNING] : phase === PHASE.PENDING ? [PHASE.PAUSED] : null;
  if (!from) throw badInput(`phase must be ${PHASE.PAUSED} or ${PHASE.PENDING}.`);
  if (!(from as string[]).includes(task.phase)) {
    if (task.phase === phase) return task;
    throw badInput(phase === PHASE.PAUSED ? 'Only a waiting or running download can be paused.' : 'Only a paused download can be continued.');
  }
  const row = await ctx.db
    .updateTable('tasks')
    .set({ phase, message: '', updated_time: ctx.clock.now() })
    .where('id', '=', task.id)
    .where('phase', 'in', from)
    .returningAll()
    .executeTakeFirst();
  // Lost a race with the worker (it finished or failed meanwhile): answer with what the task is now.
  return row ?? requireTask(ctx.db, userId, id);
}

/** The fetched content becomes a file in the task's folder; the task completes in the same transaction (also when paused meanwhile: it is done). */
export async function completeOfflineTask(
  ctx: AppContext,
  task: TaskRow,
  content: { hash: string; size: number; name: string; mimeType: string },
): Promise<string | null> {
  const params = parseParams(task.params);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    // Deleted by its owner while the last bytes arrived: nothing is placed.
    if (!(await trx.selectFrom('tasks').select('id').where('id', '=', task.id).executeTakeFirst())) return null;
    const file = await placeFileIn(
      trx,
      task.user_id,
      {
        parentId: params.parent_id ?? '',
        name: params.name || content.name,
        hash: content.hash,
        size: content.size,
        mimeType: content.mimeType && content.mimeType !== 'application/octet-stream' ? content.mimeType : undefined,
        params: { platform: params.platform ?? 'other', url: params.url ?? '' },
      },
      now,
    );
    await trx
      .updateTable('tasks')
      .set({ phase: PHASE.COMPLETE, progress: 100, file_id: file.id, name: file.name, message: '', size: content.size, updated_time: now })
      .where('id', '=', task.id)
      .execute();
    return file.id;
  });
}
