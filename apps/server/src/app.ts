/** Builds the HTTP server with every route area; main.ts and the tests both start here. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { errorBody, type RouteDef } from '@haul/shared';
import { aboutRoutes } from './about/about.routes.js';
import { AccountEraser } from './accounts/account-erasure.js';
import { accountsRoutes } from './accounts/accounts.routes.js';
import { readWithSession, verifiedTokenAccount } from './http/access-tokens.js';
import { twoFactorRoutes } from './accounts/two-factor.routes.js';
import { passkeysRoutes } from './accounts/passkeys.routes.js';
import { devicesRoutes } from './devices/devices.routes.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/database.js';
import { ensureNameSearchIndex } from './files/name-search.js';
import { oauthRoutes } from './oauth/oauth.routes.js';
import { paymentsRoutes } from './payments/payments.routes.js';
import { plansRoutes } from './plans/plans.routes.js';
import { statsRoutes } from './stats/stats.routes.js';
import { invitationsRoutes } from './invitations/invitations.routes.js';
import { OfflineWorker } from './offline/offline.worker.js';
import { offlineRoutes } from './offline/offline.routes.js';
import { torrentPlayRoutes } from './offline/torrent-play.routes.js';
import { urlCheckRoutes } from './offline/url-check.routes.js';
import { bookmarksRoutes } from './bookmarks/bookmarks.routes.js';
import { FeedWorker } from './feeds/feed.worker.js';
import { feedsRoutes } from './feeds/feeds.routes.js';
import { TelegramBot } from './telegram/telegram-bot.js';
import { telegramRoutes } from './telegram/telegram.routes.js';
import { contentRoutes } from './downloads/content.routes.js';
import { zipRoutes } from './downloads/zip.routes.js';
import { eventsRoutes } from './events/events.routes.js';
import { filesRoutes } from './files/files.routes.js';
import { shareMediaRoutes } from './shares/share-media.routes.js';
import { sharesRoutes } from './shares/shares.routes.js';
import { requireAuth, settingsComeWithSession } from './http/auth.js';
import { adminRoutes } from './admin/admin.routes.js';
import { feedbackRoutes } from './feedback/feedback.routes.js';
import { shareReportRoutes } from './shares/share-reports.routes.js';
import { applyRunTimeSettingsRow, refreshRunTimeSettings, RUN_TIME_SETTINGS_KEY } from './ops/run-time-settings.js';
import { startHeartbeat } from './ops/heartbeat.js';
import type { Role } from './roles.js';

import { auditRoutes } from './audit/audit.routes.js';
import { installCompression } from './http/compression.js';
import { installErrorHandlers } from './http/errors.js';
import { installExtensionCors } from './http/extension-cors.js';
import { installFairTurns } from './http/fair-turns.js';
import { installResponseCheck } from './http/contract.js';
import { installApiReference } from './http/openapi.js';
import { installLinkBase } from './http/public-url.js';
import { installValidators } from './http/validation.js';
import { healthRoutes } from './ops/health.routes.js';
import { HaulMetrics } from './ops/metrics.js';
import { metricsRoutes } from './ops/metrics.routes.js';
import { installRequestId, requestIdOptions } from './ops/request-id.js';
import { timedBlobStore } from './storage/timed-blob-store.js';
import { loadSecrets } from './lib/secrets.js';
import { createMailer } from './mail/create-mailer.js';
import { createSms } from './sms/create-sms.js';
import { systemClock, type Clock } from './lib/time.js';
import { LocalBlobStore } from './storage/local-blob-store.js';
import { S3BlobStore } from './storage/s3-blob-store.js';
import { stopHashThread } from './storage/threaded-hasher.js';
import { mediaRoutes } from './media/media.routes.js';
import { subtitlesRoutes } from './media/subtitles.routes.js';
import { providersRoutes } from './providers/providers.routes.js';
import { MediaWorker } from './media/media.worker.js';
import { ArchiveWorker } from './archives/archives.worker.js';
import { archivesRoutes } from './archives/archives.routes.js';
import { logRequest } from './http/log-redaction.js';
import { createJobSignals } from './tasks/job-signals.js';
import { taskKinds } from './tasks/task-kinds.js';
import { tasksRoutes } from './tasks/tasks.routes.js';
import { offlineTaskKind } from './offline/offline-task-kind.js';
import { uploadTaskKind } from './uploads/upload-task-kind.js';
import { HashingFileStore } from './uploads/hashing-file-store.js';
import { createS3UploadStore } from './uploads/s3-upload-store.js';
import { tusRoutes } from './uploads/tus.routes.js';
import { uploadsRoutes } from './uploads/uploads.routes.js';
import { extensionDownloadRoutes } from './web/extension-download.js';
import { isAppRoute, webRoutes } from './web/web.routes.js';
import { installSecurityHeaders } from './web/security-headers.js';
import { appPasswordsRoutes } from './webdav/app-passwords.routes.js';
import { webdavRoutes } from './webdav/webdav.routes.js';

/** Health and metrics: answered without the database's help. */
const OPS_PATHS = /^\/(healthz|readyz|metrics)(\?|$)/;

/** A registered route, as the route-walking tests (and the API reference) read the table. */
export interface RouteEntry {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
  /** The contract entry the route was registered from (every API route has one). */
  contract: RouteDef | undefined;
}

export interface Haul {
  app: FastifyInstance;
  /** Every route of the server, in registration order (HEAD twins of GET routes left out). */
  routes: RouteEntry[];
  ctx: AppContext;
  /** This process's Prometheus metrics (a worker serves them on its ops port: ops/ops-server.ts). */
  metrics: HaulMetrics;
  /** Offline downloads of this process; started by main.ts (and by tests that need it). */
  offline: OfflineWorker;
  /** Transcode jobs of this process; started by main.ts (and by tests that need it). */
  media: MediaWorker;
  /** Unpacking tasks of this process; started by main.ts (and by tests that need it). */
  archives: ArchiveWorker;
  /** Erasures of accounts deleted through this process, running in the background. */
  erasure: AccountEraser;
  /** Feed checks of this process; started by main.ts where workers run (and by tests that need it). */
  feeds: FeedWorker;
  /** The Telegram bot's polling and notices; started by main.ts in the worker role (and by tests that need it). */
  telegram: TelegramBot;
  close(): Promise<void>;
}

/** Opens storage, runs migrations and registers the routes. Nothing listens until app.listen(). */
/** `heartbeat`: the role this process shows in the console's process list (ops/heartbeat.ts); false for none (haul-admin). */
export async function buildHaul(config: Config, opts: { clock?: Clock; logger?: boolean; logStream?: { write(line: string): void }; heartbeat?: Role | false } = {}): Promise<Haul> {
  const { db, dialect, pool } = await openDatabase({ ...config, poolSize: config.databasePoolSize });
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel, serializers: { req: logRequest }, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    bodyLimit: 1024 * 1024,
    // X-Request-Id from a proxy or client when it is plain and short, else a new one (ops/request-id.ts).
    ...requestIdOptions,
    trustProxy: config.trustProxy.split(',').map((s) => s.trim()).filter(Boolean),
    // A path the router cannot read (bad percent-encoding, an overlong id) is bad input like any other.
    frameworkErrors: (err, _req, reply) => {
      void (reply as unknown as FastifyReply).status(400).send(errorBody('invalid_argument', `The address is not valid: ${err.message}`));
    },
  });
  const clock = opts.clock ?? systemClock;
  const metrics = new HaulMetrics(db, app.log, { pool, now: () => clock.now(), dataDir: config.dataDir });
  // The trigram index for name search, when migration 0027 could not create it; logs once why not.
  await ensureNameSearchIndex(db, dialect, app.log);
  const blobStore = config.s3 ? new S3BlobStore(config.s3) : new LocalBlobStore(join(config.dataDir, 'blobs'));
  // Timed whichever store it is, for /metrics.
  const blobs = timedBlobStore(blobStore, metrics.blobSeconds);
  const ctx: AppContext = {
    config,
    db,
    dialect,
    blobs,
    // Uploads gather where the blobs live: in S3, any API process can take an upload's next chunk.
    uploads: blobStore instanceof S3BlobStore ? await createS3UploadStore(blobStore, config.s3!) : new HashingFileStore(join(config.dataDir, 'uploads'), blobs),
    clock,
    secrets: await loadSecrets(db),
    mailer: createMailer(config, db, clock, app.log),
    sms: createSms(config, db, clock, app.log),
  };
  const heartbeat = opts.heartbeat === false ? null : startHeartbeat(ctx, opts.heartbeat ?? 'all', app.log);
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url, schema: r.schema as RouteEntry['schema'], contract: r.config?.contract });
  });
  // Before any route: routes opt in as they are registered.
  // First: a preflight is answered before anything else runs, and every answer to the extension, refusals included, names its origin.
  installExtensionCors(app);
  await installCompression(app, config.compression);
  installFairTurns(app, (token) => verifiedTokenAccount(ctx, token), { queries: dialect === 'postgres' });
  installRequestId(app);
  // Run-time settings changed in the console, by any process, hold from the next request on. Routes behind a token read
  // them with the token's session, in the same query (http/auth.ts). Hashed assets and the health checks need none (a
  // health check must answer while the database is away); a failed read keeps the last.
  readWithSession(db, { key: RUN_TIME_SETTINGS_KEY, apply: (raw) => applyRunTimeSettingsRow(ctx.config, raw) });
  app.addHook('onRequest', async (req) => {
    if (req.url.startsWith('/drive/assets/') || OPS_PATHS.test(req.url) || settingsComeWithSession(req)) return;
    await refreshRunTimeSettings(ctx).catch((err: unknown) => req.log.warn({ err }, 'run-time settings not read; the last ones hold'));
  });
  metrics.installHttpHooks(app);
  installValidators(app);
  installErrorHandlers(app);
  installSecurityHeaders(app, { indexHtml: join(config.webDir, 'index.html'), config });
  installLinkBase(app, config);
  await installApiReference(app, config);
  if (config.checkResponses) installResponseCheck(app);
  // History-mode routes of the web app fall back to index.html; everything else is a JSON 404.
  const indexHtml = join(config.webDir, 'index.html');
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    if (req.method === 'GET' && isAppRoute(path) && existsSync(indexHtml)) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', config.webDir);
    }
    return reply.status(404).send(errorBody('not_found', `No such endpoint: ${req.method} ${path}`));
  });

  // Wake-ups between processes (LISTEN/NOTIFY on PostgreSQL): a task queued here starts at once on any worker.
  const signals = createJobSignals({ databaseUrl: config.databaseUrl, db, log: app.log });
  const offline = new OfflineWorker(ctx, app.log, signals);
  const kick = () => offline.kick();
  const media = new MediaWorker(ctx, app.log, signals);
  const archives = new ArchiveWorker(ctx, app.log, signals);
  const erasure = new AccountEraser(ctx, app.log);
  const feeds = new FeedWorker(ctx, app.log, signals, kick);
  const telegram = new TelegramBot(ctx, app.log);

  await healthRoutes(app, ctx);
  await metricsRoutes(app, ctx, metrics);
  await accountsRoutes(app, ctx, erasure);
  await auditRoutes(app, ctx);
  await adminRoutes(app, ctx, erasure);
  await feedbackRoutes(app, ctx);
  await shareReportRoutes(app, ctx);
  await urlCheckRoutes(app, ctx, offline);
  await providersRoutes(app, ctx);
  await devicesRoutes(app, ctx);
  await twoFactorRoutes(app, ctx);
  await passkeysRoutes(app, ctx);
  await contentRoutes(app, ctx);
  await zipRoutes(app, ctx);
  await mediaRoutes(app, ctx);
  await subtitlesRoutes(app, ctx);
  await torrentPlayRoutes(app, ctx);
  await tusRoutes(app, ctx, ctx.uploads);
  await sharesRoutes(app, ctx, () => media.kick());
  await shareMediaRoutes(app, ctx);
  await oauthRoutes(app, ctx);
  await plansRoutes(app, ctx);
  await paymentsRoutes(app, ctx);
  await statsRoutes(app, ctx);
  await invitationsRoutes(app, ctx);
  await telegramRoutes(app, ctx);
  await appPasswordsRoutes(app, ctx);
  await webdavRoutes(app, ctx);
  await app.register(async (scope) => {
    // The drive: what a third-party app granted "pan" may use.
    requireAuth(scope, ctx, { appScope: 'pan' });
    await filesRoutes(scope, ctx, kick, () => media.kick());
    await eventsRoutes(scope, ctx);
    await aboutRoutes(scope, ctx);
    await uploadsRoutes(scope, ctx);
    await tasksRoutes(scope, ctx, taskKinds([offlineTaskKind, uploadTaskKind]), kick, (ids) => ids.length && signals.stopped(ids));
    await offlineRoutes(scope, ctx, offline);
    await bookmarksRoutes(scope, ctx, kick);
    await feedsRoutes(scope, ctx, feeds, kick);
  });
  await archivesRoutes(app, ctx, archives);
  await extensionDownloadRoutes(app, ctx);
  await webRoutes(app, ctx);

  return {
    app,
    routes,
    ctx,
    metrics,
    offline,
    media,
    archives,
    erasure,
    feeds,
    telegram,
    async close() {
      // Requests in flight finish while the jobs park.
      await Promise.all([offline.stop(), media.stop(), archives.stop(), erasure.stop(), telegram.stop(), app.close()]);
      await feeds.stop();
      await signals.close();
      // Mail still being sent (a code requested just before the stop) goes out before the database closes.
      await Promise.all([ctx.mailer.close(), ctx.sms.close()]);
      await stopHashThread();
      await heartbeat?.stop();
      await db.destroy();
    },
  };
}
