/** The latest cloud downloads (the contract's task list, type offline) and how each is shown: state, progress, speed. */
import type { HaulClient } from '@haul/client';
import type { DriveTask } from '@haul/shared';
import { formatSize, PHASE } from '@haul/shared/plain';
import { t } from './i18n';

/** How many the popup lists: the latest few, as a glance; the web app's transfer list has them all. */
export const LATEST = 10;

export async function latestCloudTasks(client: HaulClient, signal?: AbortSignal): Promise<DriveTask[]> {
  const page = await client.call('listTasks', { query: { type: 'offline', limit: LATEST }, signal });
  return page.tasks;
}

/** Whether the task is over (done or failed): nothing more will change without the person. */
export const isFinished = (t: DriveTask): boolean => t.phase === PHASE.COMPLETE || t.phase === PHASE.ERROR;

/** One line about the task: "Running · 42% · 1.2 MB/s", "Done · 4.0 MB", "Failed: the link answered 404". */
export function taskLine(task: DriveTask): string {
  const size = Number(task.file_size) > 0 ? formatSize(task.file_size) : '';
  const percent = `${Math.floor(task.progress)}%`;
  switch (task.phase) {
    case PHASE.COMPLETE:
      return size ? `${t('taskDone')} · ${size}` : t('taskDone');
    case PHASE.ERROR:
      return task.message ? t('taskFailedWhy', { why: task.message }) : t('taskFailed');
    case PHASE.PAUSED:
      return `${t('taskPaused')} · ${percent}`;
    case PHASE.RUNNING: {
      const speed = Number(task.params.speed) > 0 ? ` · ${formatSize(task.params.speed!)}/s` : '';
      return `${t('taskRunning')} · ${percent}${speed}`;
    }
    default:
      return t('taskWaiting');
  }
}

/**
 * Where a task's result opens in Haul: its file, through the drive's open_file link (seed 000: action=open_file,
 * file_ids); a task without a file yet, its folder.
 */
export function resultPageOf(server: string, task: DriveTask): string {
  const fileId = task.file_id || task.reference_resource?.id || '';
  if (fileId) return `${server}/drive/all?action=open_file&file_ids=${encodeURIComponent(fileId)}`;
  const parent = task.reference_resource?.parent_id ?? task.params.parent_id ?? '';
  return parent ? `${server}/drive/all/${encodeURIComponent(parent)}` : `${server}/drive/all`;
}
