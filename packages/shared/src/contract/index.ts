/** Every route of the API, by name: the one place a call's shape is written. */
import type { RouteDef } from './define.js';
import { aboutRoutes } from './about.js';
import { adminRoutes } from './admin.js';
import { adminAccountsRoutes } from './admin-accounts.js';
import { adminMoneyRoutes } from './admin-money.js';
import { adminInvitationsRoutes } from './admin-invitations.js';
import { adminSettingsRoutes } from './admin-settings.js';
import { adminHealthRoutes } from './admin-health.js';
import { setupRoutes } from './setup.js';
import { archivesRoutes } from './archives.js';
import { activityRoutes } from './activity.js';
import { accountsRoutes } from './accounts.js';
import { devicesRoutes } from './devices.js';
import { twoFactorRoutes } from './two-factor.js';
import { passkeysRoutes } from './passkeys.js';
import { eventsRoutes } from './events.js';
import { feedbackRoutes } from './feedback.js';
import { shareReportRoutes } from './share-reports.js';
import { reportContentRoutes } from './report-content.js';
import { filesRoutes } from './files.js';
import { mediaRoutes } from './media.js';
import { oauthRoutes } from './oauth.js';
import { paymentsRoutes } from './payments.js';
import { plansRoutes } from './plans.js';
import { providersRoutes } from './providers.js';
import { profileRoutes } from './profile.js';
import { sharesRoutes } from './shares.js';
import { shareMediaRoutes } from './share-media.js';
import { statsRoutes } from './stats.js';
import { settingsRoutes } from './settings.js';
import { tasksRoutes } from './tasks.js';
import { uploadsRoutes } from './uploads.js';
import { urlCheckRoutes } from './url-check.js';
import { bookmarksRoutes } from './bookmarks.js';
import { telegramRoutes } from './telegram.js';
import { feedsRoutes } from './feeds.js';
import { webdavRoutes } from './webdav.js';
import { zipRoutes } from './zip.js';
import { subtitlesRoutes } from './subtitles.js';
import { torrentPlayRoutes } from './torrent-play.js';

export * from './define.js';
export * from './schema-kit.js';
export * from './files.js';
export { EventListSchema } from './events.js';
export * from './tasks.js';
export { URL_KINDS, UrlCheckSchema, type UrlCheck } from './url-check.js';
export { BOOKMARK_SOURCES, BookmarkSchema, type Bookmark, type BookmarkSource } from './bookmarks.js';
export { TELEGRAM_CODE_TTL_SECONDS, TelegramStatusSchema, type TelegramStatus } from './telegram.js';
export { FEED_INTERVAL, FEED_ITEM_KINDS, FEED_ITEM_STATES, FeedItemSchema, FeedSchema, MAX_FEEDS, type Feed, type FeedItem, type FeedItemState } from './feeds.js';
export * from './plans.js';
export * from './payments.js';
export { STORAGE_KINDS, type StorageKind } from './about.js';
export * from './activity.js';
export { AUDIT_ACTIONS, AdminShareSchema, AdminUserSchema, AuditEventSchema, type AuditAction } from './admin.js';
export * from './archives.js';
export * from './admin-settings.js';
export * from './feedback.js';
export * from './share-reports.js';
export { AdminInvitationSchema, type AdminInvitation } from './admin-invitations.js';
export { AdminCodeSchema, AdminOrderSchema, AdminProductSchema, MAX_CODES_PER_REQUEST } from './admin-money.js';
export { OAUTH_CODE_TTL_SECONDS, OAUTH_SCOPES, TokenGrantResponseSchema, type OAuthScope } from './oauth.js';
export { DEVICE_CODE_TTL_SECONDS, DEVICE_POLL_INTERVAL_SECONDS, SessionSchema } from './devices.js';
export { LinkedProviderSchema, SignInProviderSchema, type LinkedProvider, type SignInProvider } from './providers.js';
export { AvatarSchema } from './profile.js';
export { AppPasswordSchema } from './webdav.js';
export { PasskeySchema } from './passkeys.js';
export { DELETION_BLOCKERS, VERIFICATION_USAGES, type VerificationUsage } from './accounts.js';

export const CONTRACT = {
  ...accountsRoutes,
  ...devicesRoutes,
  ...twoFactorRoutes,
  ...passkeysRoutes,
  ...filesRoutes,
  ...uploadsRoutes,
  ...tasksRoutes,
  ...urlCheckRoutes,
  ...bookmarksRoutes,
  ...telegramRoutes,
  ...feedsRoutes,
  ...eventsRoutes,
  ...mediaRoutes,
  ...sharesRoutes,
  ...shareMediaRoutes,
  ...aboutRoutes,
  ...oauthRoutes,
  ...providersRoutes,
  ...plansRoutes,
  ...paymentsRoutes,
  ...activityRoutes,
  ...archivesRoutes,
  ...profileRoutes,
  ...webdavRoutes,
  ...statsRoutes,
  ...settingsRoutes,
  ...adminRoutes,
  ...adminAccountsRoutes,
  ...adminMoneyRoutes,
  ...adminInvitationsRoutes,
  ...adminSettingsRoutes,
  ...adminHealthRoutes,
  ...setupRoutes,
  ...feedbackRoutes,
  ...shareReportRoutes,
  ...reportContentRoutes,
  ...zipRoutes,
  ...subtitlesRoutes,
  ...torrentPlayRoutes,
};
export type Contract = typeof CONTRACT;
export type RouteName = keyof Contract;

for (const [name, def] of Object.entries(CONTRACT) as [string, RouteDef][]) def.operationId = name;
