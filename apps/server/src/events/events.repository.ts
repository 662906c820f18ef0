/** Event rows (recent activity and play history): one per user, file and type, refreshed on repeat. */
import { sql } from 'kysely';
import type { EventType } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { FileRow } from '../db/schema.js';
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

/** Events of files that no longer exist are of no use to anyone. */
export async function deleteEventsOfFiles(db: Db, userId: string, fileIds: string[]): Promise<void> {
  if (fileIds.length) await db.deleteFrom('events').where('user_id', '=', userId).where('file_id', 'in', fileIds).execute();
}
