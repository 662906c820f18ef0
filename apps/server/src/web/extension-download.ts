/**
 * The browser extension's zips, offered by the install page (/drive/extension): GET
 * /drive/extension/haul-extension-chromium.zip and …-firefox.zip, written by `npm run build -w @haul/extension` into
 * apps/extension/zip/. They are looked for beside the web app (the web app's folder is apps/web/dist, so
 * ../../extension/zip from it), which is how the repository and the container image both lay them out. Not built:
 * a 404 that says how to build them. Like the web app's own files, the route is there only where the web app is
 * served (not in an API-only process).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorBody } from '@haul/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** The zips there are, by the name in their address. */
export const EXTENSION_ZIPS = ['haul-extension-chromium.zip', 'haul-extension-firefox.zip'] as const;

/** Where the extension's build writes its zips, found from the web app's folder. */
export const extensionZipDir = (webDir: string): string => resolve(webDir, '../../extension/zip');

export async function extensionDownloadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (!existsSync(join(ctx.config.webDir, 'index.html'))) return;
  const dir = extensionZipDir(ctx.config.webDir);
  app.get<{ Params: { name: string } }>('/drive/extension/:name', async (req, reply) => {
    const name = EXTENSION_ZIPS.find((n) => n === req.params.name);
    if (!name) return reply.status(404).send(errorBody('not_found', `No such download: ${req.params.name}. There are ${EXTENSION_ZIPS.join(' and ')}.`));
    const path = join(dir, name);
    if (!existsSync(path)) {
      return reply
        .status(404)
        .send(errorBody('not_found', `The browser extension is not built on this server: run "npm run build -w @haul/extension" (or "npm run build") to offer ${name}.`));
    }
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="${name}"`)
      .header('Content-Length', statSync(path).size)
      // A rebuilt extension keeps its address: browsers ask again each time.
      .header('Cache-Control', 'no-cache')
      .send(createReadStream(path));
  });
}
