/**
 * The details a limit error carries in its `error_description`: a JSON object with a title and the numbers a limit
 * dialog shows (seed 000 §8). Servers write it with `limitDescription`; clients read it with `parseLimitDetails`, and
 * show `describeError` wherever they print a description as text.
 */

/** Error names whose description is LimitDetails as JSON. */
export const LIMIT_ERRORS = [
  'file_space_not_enough',
  'task_daily_create_limit',
  'monthly_upload_size_exceeded',
  'monthly_cloud_download_size_exceeded',
  'monthly_download_size_exceeded',
  'daily_download_size_exceeded',
] as const;
export type LimitError = (typeof LIMIT_ERRORS)[number];

/** Which allowance ran out: a quota kind of `about` (QUOTA_KINDS), daily downloads, or storage. */
export type LimitKind = 'storage' | 'cloud_download' | 'upload_size_month' | 'cloud_download_size_month' | 'download_size_month' | 'download_size_day';

export interface LimitDetails {
  title: string;
  kind: LimitKind;
  /** Decimal strings: bytes, or tasks for cloud_download. */
  limit: string;
  usage: string;
  /** What the refused request needed. */
  needed?: string;
  /** When the allowance starts over (RFC 3339); absent for storage. */
  reset_at?: string;
}

/** The description of a limit error. */
export const limitDescription = (d: LimitDetails): string => JSON.stringify(d);

/** The details of a limit error's description, or null when it is plain text. */
export function parseLimitDetails(description: string | undefined | null): LimitDetails | null {
  if (!description || !description.startsWith('{')) return null;
  try {
    const d = JSON.parse(description) as Partial<LimitDetails>;
    return typeof d?.title === 'string' ? (d as LimitDetails) : null;
  } catch {
    return null;
  }
}

/** Words for a description: the title of JSON details, else the description itself. */
export const describeError = (description: string): string => parseLimitDetails(description)?.title ?? description;
