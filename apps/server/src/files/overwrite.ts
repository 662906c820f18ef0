/**
 * Overwriting a file's content in place (WebDAV PUT onto an existing file): the file keeps its id, so its shares,
 * star, Recent entries, links and WebDAV dead properties stay with it. The content it had is kept in the trash as a
 * file of its own, named "name(replaced YYYY-MM-DD HH.MM.SS UTC).ext", restorable until the trash is emptied or its
 * time runs out, unless there is nothing to keep: the same bytes again, or an empty file (a LOCK's placeholder).
 */
import { PHASE, withSuffix } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { FileRow } from '../db/schema.js';
import { recordEvent } from '../events/events.repository.js';
import { newId } from '../lib/ids.js';
import { addBlobRefs, releaseBlobRefs } from '../storage/blobs.repository.js';
import { requireRoom } from '../quotas/storage-room.js';

export interface NewContent {
  hash: string;
  size: number;
  /** The modified time the client gave (epoch ms); now when none. */
  modifiedTime?: number;
}

/** The name the previous content takes in the trash. */
export function replacedName(name: string, now: number): string {
  const stamp = new Date(now).toISOString().slice(0, 19).replace('T', ' ').replace(/:/g, '.');
  return withSuffix(name, `replaced ${stamp} UTC`);
}

/**
 * Gives the live file `old` new content inside the caller's transaction, after checking the room it takes: the whole
 * new size when the previous content is kept in the trash, else only what it grows by. Returns the updated row and
 * the trashed copy of the previous content, if one was kept.
 */
export async function overwriteFileIn(trx: Db, userId: string, old: FileRow, next: NewContent, now: number): Promise<{ row: FileRow; previous: FileRow | null }> {
  const keep = old.size > 0 && old.hash !== next.hash;
  await requireRoom(trx, userId, keep ? next.size : Math.max(0, next.size - old.size), now);
  let previous: FileRow | null = null;
  if (keep) {
    // The previous content's reference to its blob passes to this row, so the blob counts stay as they are.
    const id = newId();
    previous = { ...old, id, name: replacedName(old.name, now), star: 0, star_time: null, trashed: 1, trash_group: id, trashed_at: now, changed_time: now };
    await trx.insertInto('files').values(previous).execute();
  } else if (old.hash !== next.hash) {
    await releaseBlobRefs(trx, new Map([[old.hash, 1]]), now);
  }
  if (old.hash !== next.hash) await addBlobRefs(trx, next.hash, next.size, 1, now);
  const changes = { hash: next.hash, size: next.size, phase: PHASE.COMPLETE, modified_time: next.modifiedTime ?? now, changed_time: now };
  await trx.updateTable('files').set(changes).where('id', '=', old.id).where('user_id', '=', userId).execute();
  const row = { ...old, ...changes };
  await recordEvent(trx, userId, 'TYPE_UPLOAD', row, now);
  return { row, previous };
}
