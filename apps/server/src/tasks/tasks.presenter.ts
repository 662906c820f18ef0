/** Task rows → the wire task. */
import type { DriveFile, DriveTask, TaskStatus } from '@haul/shared';
import type { TaskRow } from '../db/schema.js';
import { parseParams } from '../lib/params.js';
import { toRfc3339 } from '../lib/time.js';
import { withoutSealed } from '../offline/offline-credentials.js';

export function presentTask(row: TaskRow, file: DriveFile | null = null): DriveTask {
  // A cloud download's sealed sign-in never leaves the server, not even sealed.
  const params = withoutSealed(parseParams(row.params));
  return {
    kind: 'drive#task',
    id: row.id,
    type: row.type,
    name: row.name,
    phase: row.phase,
    progress: row.progress,
    message: row.message,
    file_id: row.file_id,
    file_name: file?.name ?? row.name,
    file_size: file?.size ?? params.size ?? '0',
    params,
    created_time: toRfc3339(row.created_time),
    updated_time: toRfc3339(row.updated_time),
    reference_resource: file,
  };
}

/** A task's statuses, newest first: the row holds only the one it is in, stamped when it last changed. */
export function presentStatusHistory(row: TaskRow): TaskStatus[] {
  return [{ phase: row.phase, progress: row.progress, message: row.message, time: toRfc3339(row.updated_time) }];
}
