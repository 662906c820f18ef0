/**
 * TYPE_VIEW and TYPE_DOWNLOAD, recorded where a file's bytes or playback are served (the signed links), so every
 * client counts: the web app's viewer and download button, the command line, a download manager.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { FileRow } from '../db/schema.js';
import { recordAccessEvent } from './events.repository.js';

/**
 * What a request for a file's bytes is for. A browser says how it will use them (Fetch Metadata): an `<img>`,
 * `<video>` or a `fetch()` shows the file in the page (a view); following the link itself (`navigate`, the file is an
 * attachment) saves it. A client that says nothing (curl, the command line) is downloading.
 */
export function accessKind(req: FastifyRequest): 'TYPE_VIEW' | 'TYPE_DOWNLOAD' {
  const mode = req.headers['sec-fetch-mode'];
  return typeof mode === 'string' && mode !== '' && mode !== 'navigate' ? 'TYPE_VIEW' : 'TYPE_DOWNLOAD';
}

/** Notes that `userId` opened or downloaded `file`; never fails the request that serves the bytes. */
export async function noteFileAccess(ctx: AppContext, req: FastifyRequest, userId: string, file: Pick<FileRow, 'id' | 'name' | 'mime_type'>, type: 'TYPE_VIEW' | 'TYPE_DOWNLOAD'): Promise<void> {
  if (req.method === 'HEAD') return;
  try {
    await recordAccessEvent(ctx.db, userId, type, file, ctx.clock.now());
  } catch (err) {
    req.log.warn({ err, fileId: file.id, type }, 'could not record the file event');
  }
}
