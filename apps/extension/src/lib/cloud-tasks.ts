/** The latest cloud downloads (the contract's task list, type offline) and how each is shown: state, progress, speed. */
import type { HaulClient } from '@haul/client';
import type { DriveTask } from '@haul/shared';
import { formatSize, PHASE } from '@haul/shared/plain';

/** How many the popup lists: the latest few, as a glance; the web app's transfer list has them all. */
export const LATEST = 10;

export async function latestCloudTasks(client: HaulClient, signal?: AbortSignal): Promise<DriveTask[]> {
  const page = await client.call('listTasks', { query: { type: 'offline', limit: LATEST }, signal });
  return page.tasks;
}

/** Whether the task is over (done or failed): nothing more will change without the person. */
export const isFinished = (t: DriveTask): boolean => t.phase === PHASE.COMPLETE || t.phase === PHASE.ERROR;

/** One line about the task: "Running · 42% · 1.2 MB/s", "Done · 4.0 MB", "Failed: the link answered 404". */
export function taskLine(t: DriveTask): string {
  const size = Number(t.file_size) > 0 ? formatSize(t.file_size) : '';
  switch (t.phase) {
    case PHASE.COMPLETE:
      return size ? `Done · ${size}` : 'Done';
    case PHASE.ERROR:
      return t.message ? `Failed: ${t.message}` : 'Failed';
    case PHASE.PAUSED:
      return `Paused · ${Math.floor(t.progress)}%`;
    case PHASE.RUNNING: {
      const speed = Number(t.params.speed) > 0 ? ` · ${formatSize(t.params.speed!)}/s` : '';
      return `Running · ${Math.floor(t.progress)}%${speed}`;
    }
    default:
      return 'Waiting';
  }
}

/** The folder page in Haul that holds the task's file: /drive/all/<parent id>, or the top of the drive. */
export function folderPageOf(server: string, t: DriveTask): string {
  const parent = t.reference_resource?.parent_id ?? t.params.parent_id ?? '';
  return parent ? `${server}/drive/all/${encodeURIComponent(parent)}` : `${server}/drive/all`;
}
