/** Wire constants of the drive API, as the product specification names them. */

export const FILE_KIND = 'drive#file' as const;
export const FOLDER_KIND = 'drive#folder' as const;
export type FileKind = typeof FILE_KIND | typeof FOLDER_KIND;

export const PHASE = {
  UNKNOWN: 'PHASE_TYPE_UNKNOWN',
  PENDING: 'PHASE_TYPE_PENDING',
  RUNNING: 'PHASE_TYPE_RUNNING',
  PAUSED: 'PHASE_TYPE_PAUSED',
  ERROR: 'PHASE_TYPE_ERROR',
  COMPLETE: 'PHASE_TYPE_COMPLETE',
} as const;
export type Phase = (typeof PHASE)[keyof typeof PHASE];

export const FOLDER_TYPE_NORMAL = 'NORMAL';
/** The tag a starred file carries (type 0), alongside `star: 1`. */
export const STAR_TAG = { name: 'STAR', type: 0 } as const;

export const EVENT_TYPES = [
  'TYPE_PLAY',
  'TYPE_VIEW',
  'TYPE_CREATE',
  'TYPE_UPDATE',
  'TYPE_DOWNLOAD',
  'TYPE_DELETE',
  'TYPE_UPLOAD',
  'TYPE_RESTORE',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const SORT_ORDERS = [
  'MODIFY_TIME_ASC',
  'MODIFY_TIME_DESC',
  'SIZE_ASC',
  'SIZE_DESC',
  'NAME_ASC',
  'NAME_DESC',
  // The seeds know only TYPE_DESC; A to Z is ours, so the Type sort can be reversed as every other one can.
  'TYPE_ASC',
  'TYPE_DESC',
] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const THUMBNAIL_SIZES = ['SIZE_DEFAULT', 'SIZE_SMALL', 'SIZE_MEDIUM', 'SIZE_LARGE'] as const;

export const GB = 1073741824;
export const LIMITS = {
  /** Per-file upload limit for free users. */
  freeUploadBytes: 4 * GB,
  /** Per-file upload limit for everyone. */
  maxUploadBytes: 20 * GB,
  /** Page sizes of the file list. */
  listDefault: 100,
  listMax: 500,
  eventsDefault: 100,
  playHistoryDefault: 50,
  /** Most ids one batch call accepts; clients chunk larger selections. */
  batchMaxIds: 1000,
  /** Bytes a file name may take (UTF-8). */
  nameMaxBytes: 255,
  /** Display cap of view and restore counts. */
  countDisplayCap: 999999,
} as const;

export const LOCALES = ['en-US', 'zh-CN', 'zh-TW', 'ja', 'ko', 'id', 'ms', 'es', 'pt', 'ru', 'uk'] as const;
export type Locale = (typeof LOCALES)[number];

export const QUOTA_KINDS = [
  'cloud_download_size_month',
  'download_size_month',
  'upload_size_month',
  'cloud_download',
] as const;

/** Share link kinds: anyone with the link, or the link and its pass code. */
export const SHARE_KINDS = ['publiclink', 'encryptedlink'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

/** Validity of a share in days; -1 is forever. 0 ("stay") in an update keeps the current validity. */
export const SHARE_EXPIRATION_DAYS = [1, 7, 14, 30, -1] as const;

/** What a share link answers (seed 000 §3); EXPIRED and DELETED mean it is gone. */
export const SHARE_STATUS = {
  OK: 'OK',
  PASS_CODE_EMPTY: 'PASS_CODE_EMPTY',
  PASS_CODE_ERROR: 'PASS_CODE_ERROR',
  MAX_RESTORE_COUNT: 'MAX_RESTORE_COUNT',
  EXPIRED: 'EXPIRED',
  DELETED: 'DELETED',
  SENSITIVE_RESOURCE: 'SENSITIVE_RESOURCE',
  SENSITIVE_WORD: 'SENSITIVE_WORD',
  AUDITING: 'AUDITING',
  NOT_FOUND: 'NOT_FOUND',
  PROHIBITED: 'PROHIBITED',
} as const;
export type ShareStatus = (typeof SHARE_STATUS)[keyof typeof SHARE_STATUS];

/**
 * Usage statistics the apps report (seed 001 "Statistics"): counted per day and name on the server, nothing about who.
 * Names outside this list are refused.
 */
export const STAT_EVENTS = [
  'web_video_player_start',
  'web_video_player_end',
  'web_video_player_request_meta_fail',
  'web_player_resolution_hover_click',
  'play_limited_show',
  'play_limited_click',
  'local_upload_submitted',
  'local_upload_success',
  'local_upload_failed',
  'copy_video_link',
  'archive_unzip_request',
  'archive_unzip_success',
  'archive_unzip_fail',
  'archive_external_player',
] as const;
export type StatEvent = (typeof STAT_EVENTS)[number];

/** The grant type a device polls POST /v1/auth/token with (RFC 8628 §3.4). */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** Items one zip download may name (folders count once, whatever they hold): the selection travels in its link. */
export const ZIP_MAX_IDS = 200;
