/** Which limit dialog an error opens, and where its Upgrade button leads (seed 001 §4 "Traffic limit"). */
import { LIMIT_ERRORS, parseLimitDetails } from '@haul/shared/plain';
import type { LimitDetails, LimitError } from '@haul/shared';
import { isApiError } from '../../lib/api-error';

/** The seeds' dialog types, plus the storage and daily task limits of seed 000 §6 and the plan's cap on one cloud download. */
export type LimitDialogType = 'file_upload' | 'cloud_download' | 'file_down' | 'storage' | 'task_limit' | 'task_size';

/**
 * The limit errors, and file_size_too_large when it carries a limit's numbers (a cloud download past the plan's cap
 * on one download); without them it is a plain refusal, as the upload of a file over 4 GB is.
 */
export type LimitCode = LimitError | 'file_size_too_large';

export const DIALOG_OF: Record<LimitCode, LimitDialogType> = {
  monthly_upload_size_exceeded: 'file_upload',
  monthly_cloud_download_size_exceeded: 'cloud_download',
  monthly_download_size_exceeded: 'file_down',
  daily_download_size_exceeded: 'file_down',
  file_space_not_enough: 'storage',
  task_daily_create_limit: 'task_limit',
  file_size_too_large: 'task_size',
};

export const isLimitCode = (code: string | undefined): code is LimitError => (LIMIT_ERRORS as readonly string[]).includes(code ?? '');

/** Whether an error name and its description (JSON details, or words) make a limit the dialog explains. */
export function asLimit(code: string | undefined, description: string | undefined | null): { code: LimitCode; details: LimitDetails | null } | null {
  const details = parseLimitDetails(description);
  if (isLimitCode(code)) return { code, details };
  return code === 'file_size_too_large' && details ? { code, details } : null;
}

/** The error name and details of a limit error, or null for any other failure. */
export function limitOf(err: unknown): { code: LimitCode; details: LimitDetails | null } | null {
  if (!isApiError(err)) return null;
  return asLimit(err.code, err.body?.error_description);
}

/**
 * What premium lifts of each limit, as benefits of the carousel: only what lifting this limit is sure to give (the
 * server counts premium accounts without monthly limits, daily cloud downloads by the premium allowance and without a
 * cap on one download). Storage is not premium's: it comes with storage packs, so that dialog lists no benefit.
 */
export const BENEFITS_OF: Record<LimitDialogType, readonly string[]> = {
  file_upload: ['infinity_upload'],
  cloud_download: ['parallel_download'],
  file_down: ['high_speed_download'],
  storage: [],
  task_limit: ['parallel_download'],
  task_size: ['parallel_download'],
};

/** The payment page for a dialog: storage and traffic have pages of their own, the rest is premium. */
export function upgradePath(type: LimitDialogType, taskId?: string): string {
  const q = new URLSearchParams({ refer_from: type });
  if (taskId) q.set('task_id', taskId);
  return `/payment?${q}`;
}
