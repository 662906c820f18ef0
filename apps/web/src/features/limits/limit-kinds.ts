/** Which limit dialog an error opens, and where its Upgrade button leads (seed 001 §4 "Traffic limit"). */
import { LIMIT_ERRORS, parseLimitDetails } from '@haul/shared/plain';
import type { LimitDetails, LimitError } from '@haul/shared';
import { isApiError } from '../../lib/api-error';

/** The seeds' dialog types, plus the storage and daily task limits of seed 000 §6. */
export type LimitDialogType = 'file_upload' | 'cloud_download' | 'file_down' | 'storage' | 'task_limit';

export const DIALOG_OF: Record<LimitError, LimitDialogType> = {
  monthly_upload_size_exceeded: 'file_upload',
  monthly_cloud_download_size_exceeded: 'cloud_download',
  monthly_download_size_exceeded: 'file_down',
  daily_download_size_exceeded: 'file_down',
  file_space_not_enough: 'storage',
  task_daily_create_limit: 'task_limit',
};

export const isLimitCode = (code: string | undefined): code is LimitError => (LIMIT_ERRORS as readonly string[]).includes(code ?? '');

/** The error name and details of a limit error, or null for any other failure. */
export function limitOf(err: unknown): { code: LimitError; details: LimitDetails | null } | null {
  if (!isApiError(err) || !isLimitCode(err.code)) return null;
  return { code: err.code, details: parseLimitDetails(err.body?.error_description) };
}

/** The payment page for a dialog: storage and traffic have pages of their own, the rest is premium. */
export function upgradePath(type: LimitDialogType, taskId?: string): string {
  const q = new URLSearchParams({ refer_from: type });
  if (taskId) q.set('task_id', taskId);
  return `/payment?${q}`;
}
