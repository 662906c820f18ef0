/**
 * The client's words for errors, in the reader's language: one text for each error name of the catalogue
 * (packages/shared errors.ts), texts with the numbers of a limit, a wait, or a reason the details give. Every key is
 * written out in a `t` call, so the key check (scripts/i18n-keys.mjs) finds it in all the locales.
 */
import i18n from 'i18next';
import type { ErrorName, LimitDetails } from '@haul/shared';
import { formatSize } from '@haul/shared/plain';

/** A text of the loaded languages, or null where there is none (or before i18n has started). */
function t(key: string, options?: Record<string, unknown>): string | null {
  return i18n.exists(key) ? i18n.t(key, options) : null;
}

/** Words for an error, or null when the client has none. */
export type Words = () => string | null;

/** One text per error name: typed by the catalogue, so a name added there cannot go without words here. */
export const NAME_TEXT: Record<ErrorName, Words> = {
  invalid_argument: () => t('errors.invalid_argument'),
  file_not_found: () => t('errors.file_not_found'),
  file_duplicated_name: () => t('errors.file_duplicated_name'),
  already_exists: () => t('errors.already_exists'),
  permission_denied: () => t('errors.permission_denied'),
  file_space_not_enough: () => t('errors.file_space_not_enough'),
  file_size_too_large: () => t('errors.file_size_too_large'),
  file_hash_mismatch: () => t('errors.file_hash_mismatch'),
  archive_password_wrong: () => t('errors.archive_password_wrong'),
  task_daily_create_limit: () => t('errors.task_daily_create_limit'),
  monthly_upload_size_exceeded: () => t('errors.monthly_upload_size_exceeded'),
  monthly_cloud_download_size_exceeded: () => t('errors.monthly_cloud_download_size_exceeded'),
  monthly_download_size_exceeded: () => t('errors.monthly_download_size_exceeded'),
  daily_download_size_exceeded: () => t('errors.daily_download_size_exceeded'),
  resource_exhausted: () => t('errors.resource_exhausted'),
  too_many_requests: () => t('errors.too_many_requests'),
  file_in_recycle_bin: () => t('errors.file_in_recycle_bin'),
  sensitive_resource: () => t('errors.sensitive_resource'),
  share_not_found: () => t('errors.share_not_found'),
  failed_precondition: () => t('errors.failed_precondition'),
  invalid_grant: () => t('errors.invalid_grant'),
  unauthenticated: () => t('errors.unauthenticated'),
  authorization_pending: () => t('errors.authorization_pending'),
  slow_down: () => t('errors.slow_down'),
  expired_token: () => t('errors.expired_token'),
  access_denied: () => t('errors.access_denied'),
  two_factor_required: () => t('errors.two_factor_required'),
  invalid_client: () => t('errors.invalid_client'),
  not_found: () => t('errors.not_found'),
  method_not_allowed: () => t('errors.method_not_allowed'),
  payload_too_large: () => t('errors.payload_too_large'),
  internal: () => t('errors.internal'),
  unavailable: () => t('errors.unavailable'),
};

/** The numbers of a limit as the reader writes them: sizes in their format, a count of tasks as it is. */
type LimitNumbers = {
  usage: string;
  limit: string;
  free: string;
  needed?: string;
};

function limitNumbers(d: LimitDetails, language: string): LimitNumbers | null {
  const [usage, limit, needed] = [Number(d.usage), Number(d.limit), d.needed ? Number(d.needed) : undefined];
  if (!Number.isFinite(usage) || !Number.isFinite(limit) || (needed !== undefined && !Number.isFinite(needed))) return null;
  const words = (v: number) => (d.kind === 'cloud_download' ? String(Math.max(0, v)) : formatSize(Math.max(0, v), 1, language));
  return { usage: words(usage), limit: words(limit), free: words(limit - usage), needed: needed === undefined ? undefined : words(needed) };
}

/** A limit's refusal with its numbers; null when the details lack what its text needs. */
export function limitText(name: string, d: LimitDetails, language: string): string | null {
  const n = limitNumbers(d, language);
  if (!n) return null;
  switch (name) {
    case 'file_space_not_enough':
      return t('errors.limit.file_space_not_enough', n);
    case 'monthly_upload_size_exceeded':
      return t('errors.limit.monthly_upload_size_exceeded', n);
    case 'monthly_cloud_download_size_exceeded':
      return t('errors.limit.monthly_cloud_download_size_exceeded', n);
    case 'monthly_download_size_exceeded':
      return t('errors.limit.monthly_download_size_exceeded', n);
    case 'daily_download_size_exceeded':
      return t('errors.limit.daily_download_size_exceeded', n);
    case 'task_daily_create_limit':
      return t('errors.limit.task_daily_create_limit', n);
    case 'file_size_too_large':
      return n.needed ? t('errors.limit.file_size_too_large', n) : null;
    default:
      return null;
  }
}

/** A wait in the reader's words, in the largest unit that keeps it short: "45 seconds", "3 minutes", "2 hours". */
export function waitWords(seconds: number, language: string): string {
  const [value, unit] = seconds < 90 ? [Math.max(1, Math.ceil(seconds)), 'second'] : seconds < 90 * 60 ? [Math.ceil(seconds / 60), 'minute'] : [Math.ceil(seconds / 3600), 'hour'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** "Too many tries" with how long to wait, as `details[].retry_after_seconds` says. */
export const waitText = (seconds: number, language: string): string | null => t('errors.wait.too_many_requests', { wait: waitWords(seconds, language) });

/** The reasons some errors give in `details[].reason` that the reader can act on. */
export const REASON_TEXT: Readonly<Record<string, Words>> = {
  LAST_ADMINISTRATOR: () => t('account.deletion.blockers.LAST_ADMINISTRATOR'),
  INVALID_CLIENT: () => t('errors.reason.INVALID_CLIENT'),
  INVALID_REDIRECT_URI: () => t('errors.reason.INVALID_REDIRECT_URI'),
};

/** Failures of the client's own, with no answer from the server to word them. */
export const LOCAL_TEXT = {
  network: () => t('errors.network'),
  offline: () => t('errors.offline'),
  status: (status: number) => t('errors.http', { status }),
  unknown: () => t('errors.unknown'),
};
