/** GET /drive/v1/content/{id}: file bytes behind a signed link, with Range, ETag and a safe disposition. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, FILE_KIND, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import { findFile } from '../files/files.repository.js';
import { serve } from '../http/contract.js';
import { accessKind, noteFileAccess } from '../events/access-events.js';
import { S3BlobStore } from '../storage/s3-blob-store.js';
import { verifyDownloadLink } from './download-links.js';
import { redirectToObject, sendFileBytes, sendGone } from './send-file.js';

export async function contentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.downloadContent, async (req, reply) => {
    if (!(await verifyDownloadLink(ctx, req.params.id, req.query))) return sendGone(reply);
    const file = await findFile(ctx.db, req.query.u!, req.params.id);
    if (!file || file.trashed || file.kind !== FILE_KIND || file.phase !== PHASE.COMPLETE || !file.hash) return sendGone(reply);
    // Recent shows it (once per file in a few minutes, however many ranges a player asks for).
    await noteFileAccess(ctx, req, req.query.u!, file, accessKind(req));
    // The link was made for its account (the owner, signed in): that account's download allowance pays.
    if (ctx.config.s3?.presignedDownloads && ctx.blobs instanceof S3BlobStore && req.method === 'GET') return redirectToObject(ctx, ctx.blobs, req, reply, file, req.query.u!);
    return sendFileBytes(ctx, req, reply, file, req.query.u!);
  });
}
