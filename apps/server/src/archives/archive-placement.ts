/**
 * An unpacked archive lands in the drive in one transaction: the folder tree and every file, or nothing. Until then
 * its entries are only blobs no file names (reconciliation removes them if the task never lands), so a failure or a
 * crash leaves nothing partial in sight.
 */
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { ArchiveJobsTable } from '../db/schema-archives.js';
import { requireRoom } from '../quotas/storage-room.js';
import { makeFolderIn, placeFileIn } from '../files/files.service.js';

/** One entry of a job: what 7zz is asked for, target segments, declared size, flags. */
export interface JobEntry {
  /** The entry's path; with `x` its stored name's bytes in hex; with `w` a pattern (tasks created before `x`). */
  p: string;
  x?: 0 | 1;
  w?: 0 | 1;
  t: string[];
  s: number;
  d: 0 | 1;
  /** Encrypted. */
  e: 0 | 1;
  /** The stored path repeats: every copy's declared size in the archive's order, this entry's first (archive-plan.ts). */
  c?: number[];
}

/** What is unpacked so far, by entry index: [content hash, size]. */
export type DoneMap = Record<string, [string, number]>;

export function jobEntries(job: Pick<ArchiveJobsTable, 'entries'>): JobEntry[] {
  return JSON.parse(job.entries) as JobEntry[];
}

export function jobDone(job: Pick<ArchiveJobsTable, 'done'>): DoneMap {
  return JSON.parse(job.done || '{}') as DoneMap;
}

const NO_ROOM_ANYMORE = 'The unpacked files no longer fit in your drive: other files took the space while the task ran.';

/**
 * Places every entry and completes the task; the job row (and its sealed password) goes with it. Returns the id of the
 * folder that received the entries, or null when the task was deleted meanwhile.
 */
export async function placeUnpacked(ctx: AppContext, taskId: string, job: ArchiveJobsTable, done: DoneMap): Promise<string | null> {
  const entries = jobEntries(job);
  const now = ctx.clock.now();
  const size = Object.values(done).reduce((n, [, s]) => n + s, 0);
  return ctx.db.transaction().execute(async (trx) => {
    // Completed first, on condition: of two workers that both believed they held the task (one slow past its lease),
    // only the first places anything; a task deleted meanwhile places nothing.
    const claimed = await trx
      .updateTable('tasks')
      .set({ phase: PHASE.COMPLETE, progress: 100, message: '', size, updated_time: now })
      .where('id', '=', taskId)
      .where('phase', '=', PHASE.RUNNING)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    await requireRoom(trx, job.user_id, size, now, NO_ROOM_ANYMORE);
    const top = job.folder_name ? (await makeFolderIn(trx, job.user_id, job.parent_id, job.folder_name, now)).id : job.parent_id;
    const folders = new Map<string, string>();
    const folderFor = async (segments: string[]): Promise<string> => {
      let parent = top;
      let key = '';
      for (const s of segments) {
        key += `/${s.toLowerCase()}`;
        let id = folders.get(key);
        if (!id) {
          id = (await makeFolderIn(trx, job.user_id, parent, s, now)).id;
          folders.set(key, id);
        }
        parent = id;
      }
      return parent;
    };
    for (const [i, e] of entries.entries()) {
      if (e.d) {
        await folderFor(e.t);
        continue;
      }
      const got = done[String(i)];
      if (!got) throw new Error(`entry ${i} was not unpacked`);
      await placeFileIn(trx as Db, job.user_id, { parentId: await folderFor(e.t.slice(0, -1)), name: e.t.at(-1)!, hash: got[0], size: got[1], params: { platform: 'archive' } }, now);
    }
    await trx.updateTable('tasks').set({ file_id: top }).where('id', '=', taskId).execute();
    await trx.deleteFrom('archive_jobs').where('task_id', '=', taskId).execute();
    return top;
  });
}
