/** In-process background jobs of the embedded default. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context.js';
import { purgeExpired } from './files/trash.service.js';
import { expireUploads } from './uploads/uploads.service.js';

/** Expires abandoned uploads and purges the trash, at start and then hourly; returns a stop function. */
export function startJobs(ctx: AppContext, log: FastifyBaseLogger): () => void {
  let running = false;
  const purge = async () => {
    if (running) return;
    running = true;
    try {
      const uploads = await expireUploads(ctx, ctx.uploads);
      const r = await purgeExpired(ctx);
      if (r.files || r.blobs || uploads) log.info({ purged: { ...r, uploads } }, 'purged expired trash and uploads');
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
