/** Serves the built web app under /drive, with history-mode routes falling back to index.html. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { shareTargetRoutes } from './share-target.routes.js';

/** True for paths the web app's router owns (not the API, not file content). */
export function isAppRoute(path: string): boolean {
  return (path === '/drive' || path.startsWith('/drive/') || path.startsWith('/s/')) && !path.startsWith('/drive/v1/');
}

export async function webRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/', async (_req, reply) => reply.redirect('/drive/'));
  if (!existsSync(join(ctx.config.webDir, 'index.html'))) {
    app.log.warn(`web app not built (no ${ctx.config.webDir}/index.html): run "npm run build -w @haul/web"`);
    return;
  }
  // The installed app's share target, for the shares its service worker did not take.
  await shareTargetRoutes(app);
  await app.register(fastifyStatic, {
    root: ctx.config.webDir,
    prefix: '/drive/',
    wildcard: false,
    index: false,
    // The build writes .br/.gz beside each asset; browsers that accept them get those bytes.
    preCompressed: true,
    setHeaders(res, path) {
      // Hashed assets never change; index.html must always be revalidated.
      res.header('Cache-Control', path.includes(`${join(ctx.config.webDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}
