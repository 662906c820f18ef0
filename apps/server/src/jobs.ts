/** In-process background jobs of the embedded default. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.js';
import { purgeExpired } from './files/trash.service.js';
import { expireUploads } from './uploads/uploads.service.js';
import { purgeSessions } from './accounts/tokens.js';
import { forgetOldAttempts } from './limits/attempt-limiter.js';

/** Expires abandoned uploads, ended sessions and old attempt counts, and purges the trash, at start and then hourly; returns a stop function. */
export function startJobs(ctx: AppContext, log: FastifyBaseLogger): () => void {
  let running = false;
  const purge = async () => {
    if (running) return;
    running = true;
    try {
      const uploads = await expireUploads(ctx, ctx.uploads);
      const r = await purgeExpired(ctx);
      const sessions = await purgeSessions(ctx);
      await forgetOldAttempts(ctx.db, ctx.clock.now());
      if (r.files || r.blobs || uploads || sessions) log.info({ purged: { ...r, uploads, sessions } }, 'purged expired trash, uploads and sessions');
    } catch (err) {
      log.error(err, 'trash purge failed');
    } finally {
      running = false;
    }
  };
  void purge();
  const timer = setInterval(purge, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
