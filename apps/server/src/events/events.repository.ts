/** Event rows (recent activity and play history): one per user, file and type, refreshed on repeat. */
import { sql } from 'kysely';
import type { EventType } from '@haul/shared';
import type { Db } from '../db/database.js';
import { newestFirstPage } from '../db/newest-first.js';
import type { EventRow, FileRow } from '../db/schema.js';
import { newId } from '../lib/ids.js';

export async function recordEvent(
  db: Db,
  userId: string,
  type: EventType,
  file: Pick<FileRow, 'id' | 'name' | 'mime_type'>,
  now: number,
  params: Record<string, string> = {},
): Promise<void> {
  await db
    .insertInto('events')
    .values({
      id: newId(),
      user_id: userId,
      type,
      file_id: file.id,
      file_name: file.name,
      mime_type: file.mime_type,
      params: JSON.stringify(params),
      created_time: now,
      updated_time: now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'file_id', 'type']).doUpdateSet({
        updated_time: now,
        file_name: file.name,
        params: sql`excluded.params`,
      }),
    )
    .execute();
}

/**
 * How often opening or downloading the same file counts again. A video's player asks for many ranges and playlists
 * while it plays and seeks, and a resumed download asks again: within this window they are the same visit.
 */
export const ACCESS_EVENT_WINDOW_MS = 5 * 60_000;

/**
 * TYPE_VIEW or TYPE_DOWNLOAD when a file's bytes or playback are fetched: at most one write per (user, file, type) and
 * window. The read comes first so the many requests of one visit cost an indexed read each, never a write.
 */
export async function recordAccessEvent(
  db: Db,
  userId: string,
  type: 'TYPE_VIEW' | 'TYPE_DOWNLOAD',
  file: Pick<FileRow, 'id' | 'name' | 'mime_type'>,
  now: number,
  windowMs = ACCESS_EVENT_WINDOW_MS,
): Promise<boolean> {
  const last = await db
    .selectFrom('events')
    .select('updated_time')
    .where('user_id', '=', userId)
    .where('file_id', '=', file.id)
    .where('type', '=', type)
    .executeTakeFirst();
  if (last && Number(last.updated_time) > now - windowMs) return false;
  await recordEvent(db, userId, type, file, now);
  return true;
}

/** Events of files that no longer exist are of no use to anyone. */
export async function deleteEventsOfFiles(db: Db, userId: string, fileIds: string[]): Promise<void> {
  if (fileIds.length) await db.deleteFrom('events').where('user_id', '=', userId).where('file_id', 'in', fileIds).execute();
}

/** A page of the user's events, last changed first, of the given types or all but the excluded ones. */
export function listEvents(
  db: Db,
  userId: string,
  q: { include?: EventType[]; exclude?: EventType[]; limit: number; pageToken?: string },
): Promise<{ rows: EventRow[]; nextPageToken: string }> {
  let query = db.selectFrom('events').selectAll().where('user_id', '=', userId);
  if (q.include) query = query.where('type', 'in', q.include);
  if (q.exclude) query = query.where('type', 'not in', q.exclude);
  return newestFirstPage(query, { listing: 'events', column: 'updated_time', limit: q.limit, pageToken: q.pageToken });
}

/** Deletes the user's events `ids` when every one of them is theirs; false (nothing deleted) otherwise. */
export async function deleteEvents(db: Db, userId: string, ids: string[]): Promise<boolean> {
  const owned = await db.selectFrom('events').select('id').where('user_id', '=', userId).where('id', 'in', ids).execute();
  if (owned.length !== ids.length) return false;
  await db.deleteFrom('events').where('user_id', '=', userId).where('id', 'in', ids).execute();
  return true;
}

export async function clearEvents(db: Db, userId: string, types: EventType[]): Promise<void> {
  await db.deleteFrom('events').where('user_id', '=', userId).where('type', 'in', types).execute();
}
