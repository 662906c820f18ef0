/** Event rows → wire events, with the file they refer to. */
import type { DriveEvent, DriveFile, EventType } from '@haul/shared';
import type { EventRow } from '../db/schema.js';
import { toRfc3339 } from '../lib/time.js';
import { parseParams } from '../lib/params.js';

export function presentEvent(row: EventRow, file: DriveFile | null): DriveEvent {
  return {
    kind: 'drive#event',
    id: row.id,
    type: row.type as EventType,
    file_id: row.file_id,
    file_name: file?.name ?? row.file_name,
    mime_type: row.mime_type,
    params: parseParams(row.params),
    created_time: toRfc3339(row.created_time),
    updated_time: toRfc3339(row.updated_time),
    reference_resource: file,
  };
}
