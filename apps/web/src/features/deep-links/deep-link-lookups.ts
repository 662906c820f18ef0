/** What a deep link names, looked up on the server: the person's files, and one of their cloud downloads. */
import { PHASE } from '@haul/shared/plain';
import type { DriveFile } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { getFile } from '../files/files-api';
import { useUploads } from '../uploads/upload-store';
import './deep-links.css';

/**
 * The named files that are the person's and not in the trash, in the order named, and how many are not: someone
 * else's file answers exactly as a missing one does, so both count as missing.
 */
export async function filesOf(ids: readonly string[]): Promise<{ files: DriveFile[]; missing: number }> {
  const answers = await Promise.allSettled(ids.map((id) => getFile(id)));
  const files = answers.flatMap((a) => (a.status === 'fulfilled' && !a.value.trashed ? [a.value] : []));
  return { files, missing: ids.length - files.length };
}

/** Marks the row of a cloud download in the open transfer list (the tab its phase is on) and scrolls to it. */
export async function pointAtTask(taskId: string): Promise<boolean> {
  const task = await haul.call('getTask', { params: { id: taskId } }).catch(() => null);
  if (!task || !['offline', 'decompress'].includes(task.type)) return false;
  useUploads.setState({ panelOpen: true, tab: task.phase === PHASE.COMPLETE ? 'completed' : 'cloud' });
  // The list draws after the store changes and after its own read of the tasks: look for the row for a few seconds.
  const mark = (tries: number) => {
    const row = [...document.querySelectorAll<HTMLElement>('.transfer-panel li.transfer')].find(
      (li) => li.getAttribute('aria-label') === task.name,
    );
    if (row) {
      row.dataset.pointed = '';
      row.setAttribute('aria-current', 'true');
      row.scrollIntoView({ block: 'nearest' });
    } else if (tries > 0) setTimeout(() => mark(tries - 1), 100);
  };
  mark(50);
  return true;
}
