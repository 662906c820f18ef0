/** Offline download tasks: creating them from links, retrying, and what a finished fetch leaves in the drive. */
import { rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import parseTorrent from 'parse-torrent';
import { cleanName, PHASE, platformOfHost } from '@haul/shared';
import { planLimits } from '../quotas/plan-limits.js';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import type { Db } from '../db/database.js';
import { requireTargetFolder } from '../files/files.repository.js';
import { requireRoom } from '../quotas/storage-room.js';
import { placeFileIn } from '../files/files.service.js';
import { parseParams } from '../lib/params.js';
import { chargeDailyTasks, chargeMonthly, requireMonthlyRoom } from '../quotas/traffic.js';
import { badInput } from '../http/errors.js';
import { insertTask, requireTask } from '../tasks/tasks.repository.js';
import { isPublicAddress, parseHttpLink } from './network-guard.js';
import { requireOfflineRoom } from './offline-room.js';
import { NO_ROOM_ANYMORE } from './torrent-landing.js';
import { credentialHeaders, SEALED_PARAM, sealHeaders, withoutSealed, type CredentialsInput } from './offline-credentials.js';

export const OFFLINE = 'offline';

/** Where the bytes of a download in progress are kept (resumed from after a restart). */
export function offlinePartPath(dataDir: string, taskId: string): string {
  return join(dataDir, 'offline', `${taskId}.part`);
}

/** The folder a torrent task downloads into (its pieces are re-checked from there after a restart). */
export function torrentDir(dataDir: string, taskId: string): string {
  return join(dataDir, 'offline', `${taskId}.bt`);
}

/** Drops whatever a task has on disk. */
export async function dropOfflineBytes(dataDir: string, taskId: string): Promise<void> {
  await rm(offlinePartPath(dataDir, taskId), { force: true });
  await rm(torrentDir(dataDir, taskId), { recursive: true, force: true });
  // What a player of the unfinished torrent read and asked for (torrent-play.ts).
  for (const side of ['pieces', 'wanted']) await rm(`${torrentDir(dataDir, taskId)}.${side}`, { force: true });
}

/** Where a link comes from, for the platform filter and icons. */
export function platformOf(url: URL): string {
  return platformOfHost(url.hostname);
}

/** Magnet links name their torrent by info hash: 40 hex digits or 32 base32 ones. */
const BTIH = /^urn:btih:([0-9a-f]{40}|[a-z2-7]{32})$/i;
/** A .torrent file larger than this is refused (real ones are kilobytes; the file list of a huge one is a few MB). */
export const TORRENT_MAX_BYTES = 5 * 1024 * 1024;

interface NewOfflineTask {
  name: string;
  params: Record<string, string>;
  /** The size of each file, when known before any transfer (a .torrent file lists them). */
  fileSizes?: number[];
}

function magnetTask(raw: string): NewOfflineTask {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badInput(`"${raw.slice(0, 200)}" is not a valid magnet link.`);
  }
  const xt = url.searchParams.getAll('xt').find((x) => BTIH.test(x));
  if (!xt) throw badInput('The magnet link has no BitTorrent info hash (xt=urn:btih:…).');
  const name = url.searchParams.get('dn')?.trim() || `magnet ${xt.slice(9, 17).toLowerCase()}`;
  return { name, params: { kind: 'bt', url: raw, platform: 'bt' } };
}

/** One link: http(s) or magnet; a private address literal is refused at once (names are checked when connecting). */
function linkTask(ctx: AppContext, raw: string): NewOfflineTask {
  if (/^magnet:/i.test(raw)) return magnetTask(raw);
  const url = parseHttpLink(raw);
  if (!url) throw badInput(`"${raw.slice(0, 200)}" is not an http, https or magnet link.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!ctx.config.allowPrivateNetwork && (host === 'localhost' || (isIP(host) && !isPublicAddress(host)))) {
    throw badInput('The link points to a private or reserved network address; Haul does not fetch from those.');
  }
  const name = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '') || url.hostname;
  return { name, params: { url: url.toString(), platform: platformOf(url) } };
}

/** A .torrent file's task: the file itself travels in the task (it is small), so any worker can start it. */
async function torrentFileTask(base64: string): Promise<NewOfflineTask> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw badInput('The torrent file is empty.');
  if (bytes.length > TORRENT_MAX_BYTES) throw badInput(`The torrent file is larger than ${TORRENT_MAX_BYTES / 1024 / 1024} MB.`);
  const parsed = await parseTorrent(bytes).catch(() => null);
  if (!parsed?.infoHash || !parsed.files) throw badInput('This is not a valid .torrent file.');
  return {
    name: parsed.name || parsed.infoHash,
    params: { kind: 'bt', torrent: bytes.toString('base64'), platform: 'bt' },
    fileSizes: parsed.files.map((f) => f.length),
  };
}

/** `file_ids` of a torrent task: the indexes of the files to keep, comma-separated ("" keeps all). */
function fileIdsParam(raw: string | undefined): string {
  if (!raw) return '';
  const ids = raw.split(',').map((x) => x.trim()).filter(Boolean);
  if (ids.length > 100_000 || ids.some((x) => !/^\d{1,7}$/.test(x))) throw badInput('file_ids must list file indexes, comma-separated.');
  return [...new Set(ids.map(Number))].sort((a, b) => a - b).join(',');
}

/**
 * Creates one task a link (one link a line) or for a .torrent file, refusing the lot if any is bad or the daily
 * limit is reached. `fileIds` chooses files of a single torrent.
 */
export async function createOfflineTasks(
  ctx: AppContext,
  userId: string,
  input: { text: string; parentId: string; name?: string; torrent?: string; fileIds?: string; credentials?: CredentialsInput },
  /** retry: a failed download started again replaces its task, so it does not count against today's allowance again. */
  opts: { retry?: boolean; requestId?: string; once?: OnceHooks } = {},
): Promise<TaskRow[]> {
  const links = input.text.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);
  if (links.length === 0 && !input.torrent) throw badInput('Paste at least one link, or give a torrent file.');
  if (links.length > 100) throw badInput('Paste at most 100 links at once.');
  const made = links.map((l) => linkTask(ctx, l));
  if (input.torrent) made.push(await torrentFileTask(input.torrent));
  const fileIds = fileIdsParam(input.fileIds);
  if (fileIds && (made.length !== 1 || made[0]!.params.kind !== 'bt')) throw badInput('file_ids applies to a single magnet link or torrent file.');
  const headers = credentialHeaders(input.credentials);
  const sealed = Object.keys(headers).length > 0;
  if (sealed && made.some((t) => t.params.kind === 'bt')) throw badInput('A user name, password or headers apply to http and https links only.');
  // A chosen name is made valid (no slashes or control characters), never refused: it names one link's file.
  const chosenName = made.length === 1 && input.name ? cleanName(input.name, '') : '';
  await requireMonthlyRoom(ctx, userId, 'offline', 1);
  // A size known now is checked now: a download that cannot land is refused here, naming the limit, not accepted to fail later.
  for (const t of made) {
    if (!t.fileSizes) continue;
    const chosen = fileIds ? fileIds.split(',').map((i) => t.fileSizes![Number(i)] ?? 0) : t.fileSizes;
    await requireOfflineRoom(ctx, userId, chosen.reduce((n, x) => n + x, 0));
  }
  const { dailyTasks, premium } = await planLimits(ctx, userId);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    await requireTargetFolder(trx, userId, input.parentId);
    if (opts.once && !(await opts.once.claim(trx))) return [];
    if (!opts.retry) await chargeDailyTasks(ctx, trx, userId, made.length, dailyTasks, premium);
    const ids: string[] = [];
    for (const t of made) {
      const named = chosenName || undefined;
      const params = {
        ...t.params,
        parent_id: input.parentId,
        ...(named ? { name: named } : {}),
        ...(fileIds ? { file_ids: fileIds } : {}),
        // Sealed per task (own IV); the presenter never shows it and the task drops it when it ends.
        ...(sealed ? { [SEALED_PARAM]: sealHeaders(ctx.secrets, headers) } : {}),
      };
      ids.push(await insertTask(trx, { userId, type: OFFLINE, phase: PHASE.PENDING, name: named ?? t.name, params, requestId: opts.requestId }, now));
    }
    const rows = await trx.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
    const tasks = ids.map((id) => rows.find((r) => r.id === id)!);
    await opts.once?.made(trx, tasks);
    return tasks;
  });
}

/**
 * What makes a task be made once (a feed's item): `claim` runs first in the task's transaction and says whether to go
 * on (false: made before, nothing is charged or added); `made` records the tasks in the same transaction.
 */
export interface OnceHooks {
  claim(trx: Db): Promise<boolean>;
  made(trx: Db, tasks: TaskRow[]): Promise<void>;
}

/** POST task {id, create_type: RETRY}: a failed download starts again as a new task. */
export async function retryTask(ctx: AppContext, userId: string, id: string, requestId?: string): Promise<TaskRow> {
  const old = await requireTask(ctx.db, userId, id);
  if (old.type !== OFFLINE) throw badInput('Only cloud downloads can be retried.');
  if (old.phase !== PHASE.ERROR) throw badInput('Only a failed task can be retried.');
  const params = parseParams(old.params);
  const [task] = await createOfflineTasks(ctx, userId, {
    text: params.torrent ? '' : (params.url ?? ''),
    torrent: params.torrent,
    fileIds: params.file_ids,
    parentId: params.parent_id ?? '',
    name: params.name,
  }, { retry: true, requestId });
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
/**
 * Space is checked when a download starts (it bounds what is fetched) and again when it is placed, under the user's
 * lock (requireRoom): downloads that ran side by side each fitted alone, and only those that still fit land.
 */

export async function completeOfflineTask(
  ctx: AppContext,
  task: TaskRow,
  content: { hash: string; size: number; name: string; mimeType: string },
): Promise<string | null> {
  const params = parseParams(task.params);
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    // Deleted by its owner while the last bytes arrived: nothing is placed.
    const current = await trx.selectFrom('tasks').select('params').where('id', '=', task.id).executeTakeFirst();
    if (!current) return null;
    await requireRoom(trx, task.user_id, content.size, now, NO_ROOM_ANYMORE);
    // Counted when it lands, under the same transaction: downloads that ran side by side cannot together pass the month.
    await chargeMonthly(ctx, trx, task.user_id, 'offline', content.size, now);
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
      .set({ phase: PHASE.COMPLETE, progress: 100, file_id: file.id, name: file.name, message: '', size: content.size, updated_time: now, params: JSON.stringify(withoutSealed(parseParams(current.params))) })
      .where('id', '=', task.id)
      .execute();
    return file.id;
  });
}
