/**
 * A torrent's files land in the drive one by one, each as soon as it is complete and verified, not when the whole
 * torrent is: the task's folder exists from the first file on. What has landed is kept in the task's params
 * (`landed`: file indexes; `folders`: the folders made, by path), written in the same transaction as each file, so a
 * restart, a second report of the same file or the task's completion never places a file twice or a folder again.
 * Each file is charged (room, month) as it lands, under the same lock as the single-link downloads.
 */
import { FOLDER_KIND, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { TaskRow } from '../db/schema.js';
import { makeFolderIn, placeFileIn } from '../files/files.service.js';
import { parseParams } from '../lib/params.js';
import { requireRoom } from '../quotas/storage-room.js';
import { chargeMonthly } from '../quotas/traffic.js';
import { withoutSealed } from './offline-credentials.js';
import { lockTask } from './task-params.js';

/** A file of the torrent with its content in the store. */
export interface LandingFile {
  index: number;
  path: string[];
  hash: string;
  size: number;
}

/** Said when room taken by other files while the torrent ran leaves none for the rest of it. */
export const NO_ROOM_ANYMORE = 'The download no longer fits in your drive: other files took the space while it ran.';

/** The landed indexes a task's params name. */
export const landedOf = (params: Record<string, string>): Set<number> => new Set((params.landed ?? '').split(',').filter(Boolean).map(Number));

/**
 * Places `files` (not yet landed) of a task, making folders under the task's folder as their paths need; answers the
 * task's params with the new state and the id the task points at (the top folder of a multi-file torrent, or the file).
 */
async function place(ctx: AppContext, trx: Db, task: TaskRow, params: Record<string, string>, files: LandingFile[], now: number) {
  const landed = landedOf(params);
  const todo = files.filter((f) => !landed.has(f.index));
  const bytes = todo.reduce((n, f) => n + f.size, 0);
  if (todo.length) {
    await requireRoom(trx, task.user_id, bytes, now, NO_ROOM_ANYMORE);
    // Counted as it lands, under the same transaction: downloads side by side cannot together pass the month.
    await chargeMonthly(ctx, trx, task.user_id, 'offline', bytes, now);
  }
  const folders: Record<string, string> = JSON.parse(params.folders || '{}');
  // A folder made earlier that its owner has since deleted or trashed is made again.
  const live = async (id: string) =>
    !!(await trx.selectFrom('files').select('id').where('id', '=', id).where('user_id', '=', task.user_id).where('kind', '=', FOLDER_KIND).where('trashed', '=', 0).executeTakeFirst());
  const checked = new Set<string>();
  const folderFor = async (segments: string[]): Promise<string> => {
    let parent = params.parent_id ?? '';
    let key = '';
    for (const segment of segments) {
      key += `/${segment}`;
      let id: string | undefined = folders[key];
      if (id && !checked.has(key) && !(await live(id))) id = undefined;
      if (!id) id = folders[key] = (await makeFolderIn(trx, task.user_id, parent, segment, now)).id;
      checked.add(key);
      parent = id;
    }
    return parent;
  };
  let top = '';
  let topName = '';
  for (const f of todo) {
    const parentId = await folderFor(f.path.slice(0, -1));
    const file = await placeFileIn(trx, task.user_id, { parentId, name: f.path.at(-1)!, hash: f.hash, size: f.size, params: { platform: 'bt', url: params.url ?? '' } }, now);
    landed.add(f.index);
    if (!top) [top, topName] = f.path.length > 1 ? [folders[`/${f.path[0]}`]!, f.path[0]!] : [file.id, file.name];
  }
  const next = { ...params, landed: [...landed].sort((a, b) => a - b).join(','), folders: JSON.stringify(folders) };
  return { params: next, top, topName };
}

/**
 * One finished file of a running torrent goes into the drive now. Answers false when the task is gone or no longer
 * running (deleted or paused meanwhile: the file lands with the rest later, or not at all).
 */
export async function landTorrentFile(ctx: AppContext, task: TaskRow, file: LandingFile): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const current = await lockTask(ctx, trx, task.id);
    if (!current || current.phase !== PHASE.RUNNING) return false;
    const { params, top } = await place(ctx, trx, task, parseParams(current.params), [file], now);
    await trx
      .updateTable('tasks')
      .set({ params: JSON.stringify(params), file_id: current.file_id || top, updated_time: now })
      .where('id', '=', task.id)
      .execute();
    return true;
  });
}

/**
 * A finished torrent: the files not landed yet go into the task's folder (a multi-file torrent as a folder tree
 * under its own name, renamed on a clash; a single file beside the others) and the task completes, pointing at the
 * top folder or the file.
 */
export async function completeTorrentTask(ctx: AppContext, task: TaskRow, content: { name: string; multiFile: boolean; files: LandingFile[] }): Promise<string | null> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    // Deleted by its owner while the last bytes arrived: nothing is placed.
    const current = await lockTask(ctx, trx, task.id);
    if (!current) return null;
    const before = parseParams(current.params);
    const { params, top, topName } = await place(ctx, trx, task, before, content.files, now);
    const fileId = current.file_id || top;
    const size = content.files.reduce((n, f) => n + f.size, 0);
    await trx
      .updateTable('tasks')
      .set({ phase: PHASE.COMPLETE, progress: 100, file_id: fileId, name: before.name || (content.multiFile ? content.name : topName || content.name), message: '', size, updated_time: now, params: JSON.stringify(withoutSealed(params)) })
      .where('id', '=', task.id)
      .execute();
    return fileId;
  });
}
