/** Table shapes for Kysely. One schema serves SQLite and PostgreSQL: times are epoch ms, flags 0/1, JSON as text. */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { DeviceLoginsTable, TwoFactorTable, RecoveryCodesTable, OAuthClientsTable, OAuthCodesTable, OAuthConsentsTable, ProviderLinksTable, ProviderStatesTable } from './schema-sign-in.js';

export type { DeviceLoginsTable, TwoFactorTable, RecoveryCodesTable, OAuthClientsTable, OAuthCodesTable, OAuthConsentsTable, ProviderLinksTable, ProviderStatesTable };
import type { PlanGrantsTable, RedeemCodesTable, RedeemCodeUsesTable, ProductsTable, OrdersTable, PaymentEventsTable, PaymentFulfilmentsTable, SubscriptionsTable } from './schema-plans.js';

export type { PlanGrantsTable, RedeemCodesTable, RedeemCodeUsesTable, ProductsTable, OrdersTable, PaymentEventsTable, PaymentFulfilmentsTable, SubscriptionsTable };
import type { InviteCodesTable, InvitationsTable, InviteRewardCountsTable } from './schema-invitations.js';
import type { ArchiveJobsTable } from './schema-archives.js';
import type { AuditEventsTable, BlockedWordsTable } from './schema-audit.js';
import type { FeedbackTable } from './schema-feedback.js';
import type { ShareReportsTable } from './schema-reports.js';
import type { ProcessHeartbeatsTable } from './schema-ops.js';
import type { TrialsTable } from './schema-trials.js';
import type { PasskeyChallengesTable, PasskeysTable } from './schema-passkeys.js';
import type { BookmarksTable } from './schema-bookmarks.js';
import type { FeedItemsTable, FeedsTable } from './schema-feeds.js';
import type { TelegramInboxTable, TelegramLinkCodesTable, TelegramLinksTable, TelegramPollerTable, TelegramTasksTable, TelegramUpdatesTable } from './schema-telegram.js';
import type { MediaJobsTable, MediaRenditionsTable } from './schema-media.js';

export type { MediaJobsTable, MediaRenditionsTable };
import type { AppPasswordsTable, DavChecksumsTable, DavLocksTable, DavPropsTable } from './schema-webdav.js';
import type { ShareFilesTable, SharesTable } from './schema-shares.js';

export type { ShareFilesTable, SharesTable };

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  is_admin: number;
  storage_limit: number;
  premium_expire: number | null;
  created_at: number;
  password_updated_at: number;
  /** Set when an operator disabled the account: its tokens are refused and it cannot sign in. */
  disabled_at: number | null;
  /** Bumped by sign-out-everywhere, a password change or disabling: download links signed before then stop working. */
  session_epoch: number;
  /**
   * Set when the account was deleted: it is refused everywhere, its address is released, and the periodic jobs erase
   * what it had; the row goes last (accounts/account-erasure.ts).
   */
  deleted_at: number | null;
  /** E.164 (`+14155552671`), unique while set; null when the account has none. */
  phone_number: Generated<string | null>;
  /** A built-in avatar (`avatar:N`, rules/profile.ts); null when none was chosen. */
  picture: Generated<string | null>;
}

/** One sign-in: its refresh tokens rotate inside it; access tokens name it, so ending it ends them at once. */
export interface SessionsTable {
  id: string;
  user_id: string;
  /** Client address at sign-in (per /64 for IPv6): known addresses keep the sign-in slow path open to the owner. */
  ip: string;
  user_agent: string;
  /** What a device signed in by code called itself; '' for browsers (named from user_agent). */
  device_name: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  /** The third-party app this session was granted to (OAuth); null for the person's own sign-ins. */
  client_id: Generated<string | null>;
  /** What the app may do ('user pan offline', space-separated); null for the person's own sign-ins. */
  scope: Generated<string | null>;
  /** The session that approved this device or allowed this app: ending that one from elsewhere ends this too. */
  parent_session_id: Generated<string | null>;
}

/** Attempts at something guessable (sign-in, pass codes), counted per key in the database so every process sees them. */
export interface AttemptLimitsTable {
  key: string;
  count: number;
  /** No attempt is taken before this time. */
  next_at: number;
  last_at: number;
}

/** A code sent by mail: its keyed hash, what it is for, and the one-time token a right code was exchanged for. */
export interface VerificationsTable {
  id: string;
  /** REGISTER, PASSWORD_RESET, DEFAULT, … (the seeds' usages). */
  usage: string;
  /**
   * The normalised address the code went to (or would have: unknown ones get a row and no message): an e-mail
   * address, or an E.164 phone number for codes sent by text message (never mistaken for each other: no address
   * starts with +).
   */
  email: string;
  user_id: string | null;
  code_hash: string;
  created_at: number;
  expires_at: number;
  /** When the right code was given: a code works once. */
  verified_at: number | null;
  /** SHA-256 of the verification token issued for the right code. */
  token_hash: string | null;
  token_expires_at: number | null;
  /** When the token was spent (a reset, a sign-up, a sudo grant): a token works once. */
  token_used_at: number | null;
}

/** Mail kept when no SMTP server is configured, and text messages when no gateway is; `haul-admin outbox` prints them. */
export interface MailOutboxTable {
  id: string;
  /** 'mail', or 'sms' (to_address is then an E.164 number, subject and html_body are ''). */
  channel: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: number;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: number;
  created_at: number;
  session_id: string;
  /** When it was exchanged; a second use is a replay and ends the session (after the grace window, see tokens.ts). */
  used_at: number | null;
  /** The token issued in exchange for this one. */
  replaced_by: string | null;
}

export interface FilesTable {
  id: string;
  user_id: string;
  /** '' for the root folder. */
  parent_id: string;
  name: string;
  kind: string;
  size: number;
  mime_type: string;
  file_extension: string;
  /** Content hash of the blob; '' for folders. */
  hash: string;
  star: number;
  star_time: number | null;
  trashed: number;
  /** Id of the item whose trashing took this one along (itself for the item the user trashed). */
  trash_group: string | null;
  trashed_at: number | null;
  phase: string;
  sensitive: number;
  params: string;
  created_time: number;
  modified_time: number;
  /** Bumped on every change, trash and star included: incremental sync follows it. */
  changed_time: number;
}

export interface FileTombstonesTable {
  file_id: string;
  user_id: string;
  parent_id: string;
  kind: string;
  deleted_time: number;
}

export interface BlobsTable {
  hash: string;
  size: number;
  /** Sample id of large blobs (see cidSampleRanges), for the pre-check before hashing a whole file. */
  cid: string;
  ref_count: number;
  created_at: number;
  updated_at: number;
}

export interface EventsTable {
  id: string;
  user_id: string;
  type: string;
  file_id: string;
  file_name: string;
  mime_type: string;
  params: string;
  created_time: number;
  updated_time: number;
}

export interface TasksTable {
  id: string;
  user_id: string;
  type: string;
  phase: string;
  name: string;
  progress: number;
  message: string;
  params: string;
  file_id: string;
  /** Bytes the task moved (what counts against the monthly quotas). */
  size: number;
  created_time: number;
  updated_time: number;
  /** X-Request-Id of the request that created it (null before 0024 or when none): the worker logs it as reqId. */
  request_id: string | null;
  /** When a worker last claimed it (tasks/turns.ts): accounts served longest ago go first. */
  claimed_time: Generated<number | null>;
}

export interface UploadsTable {
  /** Random, unguessable: it is the last segment of the upload URL. */
  id: string;
  user_id: string;
  task_id: string;
  parent_id: string;
  name: string;
  size: number;
  /** The hash the client announced, checked against what arrived; '' when none was given. */
  declared_hash: string;
  /** The client's id of this upload (parent, name, size, type, path hashed); '' when it sent none. */
  client_key: string;
  /** 1: placing it sends the live file of the same name to the trash instead of taking a suffix. */
  replace_existing: number;
  created_at: number;
  /** Pushed forward by each PATCH (idle limit), never past the upload's longest life. */
  expires_at: number;
}

export interface OfflineSourcesTable {
  /** Final URL and ETag/Last-Modified, one per line. */
  source_key: string;
  hash: string;
  size: number;
  name: string;
  mime_type: string;
  created_at: number;
}

// --- media (probes, thumbnails, transcodes); keyed by content hash ---
export interface MediaInfoTable {
  hash: string;
  /** video, audio or image: the same bytes may be named as either. */
  kind: string;
  /** JSON of the probe (MediaProbe); '{}' when it failed. */
  info: string;
  /** Why the content could not be read as media; '' when it could. */
  error: string;
  created_at: number;
}

export interface MediaThumbnailsTable {
  hash: string;
  /** SIZE_SMALL, SIZE_MEDIUM or SIZE_LARGE. */
  size: string;
  /** Blob of the picture; '' when the content has none (audio without cover art, unreadable content). */
  thumb_hash: string;
  mime_type: string;
  width: number;
  height: number;
  created_at: number;
}

// --- end media ---

export interface SystemKvTable {
  key: string;
  value: string;
}

/** Bytes (or tasks) an account moved in one quota period; see accounts/traffic-usage.repository.ts. */
export interface TrafficUsageTable {
  user_id: string;
  kind: string;
  period: string;
  amount: number;
}

export interface Database {
  users: UsersTable;
  audit_events: AuditEventsTable;
  blocked_words: BlockedWordsTable;
  feedback: FeedbackTable;
  share_reports: ShareReportsTable;
  provider_links: ProviderLinksTable;
  provider_states: ProviderStatesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  attempt_limits: AttemptLimitsTable;
  verifications: VerificationsTable;
  mail_outbox: MailOutboxTable;
  device_logins: DeviceLoginsTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  oauth_clients: OAuthClientsTable;
  oauth_codes: OAuthCodesTable;
  oauth_consents: OAuthConsentsTable;
  files: FilesTable;
  file_tombstones: FileTombstonesTable;
  blobs: BlobsTable;
  events: EventsTable;
  tasks: TasksTable;
  uploads: UploadsTable;
  upload_locks: UploadLocksTable;
  offline_sources: OfflineSourcesTable;
  shares: SharesTable;
  share_files: ShareFilesTable;
  system_kv: SystemKvTable;
  media_info: MediaInfoTable;
  media_thumbnails: MediaThumbnailsTable;
  media_jobs: MediaJobsTable;
  media_renditions: MediaRenditionsTable;
  plan_grants: PlanGrantsTable;
  redeem_codes: RedeemCodesTable;
  redeem_code_uses: RedeemCodeUsesTable;
  products: ProductsTable;
  orders: OrdersTable;
  payment_events: PaymentEventsTable;
  payment_fulfilments: PaymentFulfilmentsTable;
  subscriptions: SubscriptionsTable;
  traffic_usage: TrafficUsageTable;
  invite_codes: InviteCodesTable;
  invitations: InvitationsTable;
  invite_reward_counts: InviteRewardCountsTable;
  trials: TrialsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  bookmarks: BookmarksTable;
  feeds: FeedsTable;
  feed_items: FeedItemsTable;
  telegram_links: TelegramLinksTable;
  telegram_link_codes: TelegramLinkCodesTable;
  telegram_poller: TelegramPollerTable;
  telegram_updates: TelegramUpdatesTable;
  telegram_tasks: TelegramTasksTable;
  telegram_inbox: TelegramInboxTable;
  archive_jobs: ArchiveJobsTable;
  app_passwords: AppPasswordsTable;
  dav_props: DavPropsTable;
  dav_locks: DavLocksTable;
  dav_checksums: DavChecksumsTable;
  process_heartbeats: ProcessHeartbeatsTable;
  /** Usage statistics: see the 0022 migration. */
  stat_counts: { day: string; event: string; count: number };
  /** Settings that follow a person between browsers: see the 0023 migration. */
  user_settings: { user_id: string; item: string; value: string; updated_at: number };
  kysely_migration?: { name: string; timestamp: string };
  kysely_migration_lock?: { id: string; is_locked: Generated<number> };
}

export type UserRow = Selectable<UsersTable>;
export type FileRow = Selectable<FilesTable>;
export type EventRow = Selectable<EventsTable>;
export type TaskRow = Selectable<TasksTable>;
/** A lease on an upload held by the request writing to it (uploads/upload-locker.ts). */
export interface UploadLocksTable {
  upload_id: string;
  /** The holding request's own random id. */
  holder: string;
  /** The lease runs out here unless its holder renews it (a process that died lets go by itself). */
  expires_at: number;
  /** 1: another request is waiting for the upload; the holder stops and lets go. */
  wanted: ColumnType<number, number | undefined, number>;
}

export type UploadRow = Selectable<UploadsTable>;
export type ShareRow = Selectable<SharesTable>;
export type MediaJobRow = Selectable<MediaJobsTable>;
export type MediaRenditionRow = Selectable<MediaRenditionsTable>;
