/** In-process background jobs of the embedded default. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.js';
import { purgeExpired } from './files/trash.service.js';
import { expireUploads, finishStrandedUploads } from './uploads/uploads.service.js';
import { sweepUploadLocks } from './uploads/upload-locker.js';
import { reconcileOrphans } from './ops/reconcile.js';
import { expireFinishedTasks } from './tasks/task-retention.js';
import { purgeSessions } from './accounts/tokens.js';
import { purgeDeviceLogins } from './devices/device-login.service.js';
import { continueAccountErasures } from './accounts/account-erasure.js';
import { forgetOldAttempts } from './limits/attempt-limiter.js';
import { purgeVerifications } from './accounts/verification.service.js';
import { purgeOutbox } from './mail/outbox.js';
import { purgeAudit } from './audit/audit.repository.js';
import { renewSandbox } from './payments/sandbox-provider.js';
import { sweepExpiredLocks } from './webdav/locks.js';
import { refreshRunTimeSettings } from './ops/run-time-settings.js';

/** Hours between two reconciliation passes (they walk the whole blob folder). */
const RECONCILE_EVERY = 6;

/**
 * At start: finishes uploads whose last byte arrived before a crash, then reconciles the data folder. Then hourly:
 * expires abandoned uploads, finishes erasing deleted accounts (an erasure a crash or a stop cut short), expires ended
 * sessions, old attempt counts, verification codes, outbox mail and WebDAV locks, removes finished tasks nobody reads
 * (tasks/task-retention.ts), renews sandbox subscriptions, purges the trash (and the blobs erased accounts released),
 * and every few hours reconciles again. Returns a stop function.
 */
export function startJobs(ctx: AppContext, log: FastifyBaseLogger): () => void {
  let running = false;
  let runs = 0;
  const purge = async () => {
    if (running) return;
    running = true;
    try {
      if (runs === 0) {
        const finished = await finishStrandedUploads(ctx, ctx.uploads, log);
        if (finished) log.info({ finished }, 'finished uploads stranded by a stop');
      }
      if (runs++ % RECONCILE_EVERY === 0) {
        const removed = await reconcileOrphans(ctx);
        if (Object.values(removed).some(Boolean)) log.info({ removed }, 'removed files no row explains (left by a crash)');
      }
      const uploads = await expireUploads(ctx, ctx.uploads);
      // On its own: an account whose erasure keeps failing must not hold up the rest of the purge.
      const accounts = await continueAccountErasures(ctx).catch((err) => {
        log.error(err, 'erasing deleted accounts failed; the next run goes on with them');
        return 0;
      });
      if (accounts) log.info({ accounts }, 'finished erasing deleted accounts');
      // A worker answers no requests: it picks up the console's changes (trash retention, say) here.
      await refreshRunTimeSettings(ctx);
      const r = await purgeExpired(ctx);
      const sessions = await purgeSessions(ctx);
      await forgetOldAttempts(ctx.db, ctx.clock.now());
      await purgeVerifications(ctx);
      await purgeDeviceLogins(ctx);
      await purgeOutbox(ctx.db, ctx.clock.now());
      await purgeAudit(ctx.db, ctx.clock.now() - ctx.config.auditRetentionDays * 86_400_000);
      await sweepExpiredLocks(ctx.db, ctx.clock.now());
      await sweepUploadLocks(ctx.db, Date.now());
      const tasks = await expireFinishedTasks(ctx.db, ctx.clock.now());
      if (ctx.config.paySandbox) {
        const renewed = await renewSandbox(ctx);
        if (renewed) log.info({ renewed }, 'renewed or ended sandbox subscriptions');
      }
      if (r.files || r.blobs || uploads || sessions || tasks) log.info({ purged: { ...r, uploads, sessions, tasks } }, 'purged expired trash, uploads, sessions and tasks');
    } catch (err) {
      log.error(err, 'trash purge failed');
    } finally {
      running = false;
    }
  };
  void purge();
  const timer = setInterval(() => void purge(), 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
