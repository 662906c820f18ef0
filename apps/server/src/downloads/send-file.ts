/** Sending a stored file's bytes: as an attachment with Range and ETag, or as a redirect to a presigned object. */
import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply, FastifyRequest } from 'fastify';
import rangeParser from 'range-parser';
import { errorBody } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow } from '../db/schema.js';
import type { Charge } from '../quotas/traffic.js';
import { LocalBlobStore } from '../storage/local-blob-store.js';
import type { S3BlobStore } from '../storage/s3-blob-store.js';
import { chargeForDownload, metered } from './download-meter.js';

/** Types a browser could run as a page on our origin; they are sent as opaque bytes. */
const ACTIVE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript|application\/x-shockwave-flash)/i;

/** The answer to a download link that no longer leads anywhere. */
export const sendGone = (reply: FastifyReply) =>
  reply.status(404).send(errorBody('file_not_found', 'The link has expired or the file no longer exists.'));

/**
 * Sends a stored file as an attachment, with Range, ETag and the headers that keep it from running on our origin;
 * the bytes sent count against `payerId`'s download allowance (a 403 limit error when they do not fit; '' for none). `etag` is the
 * whole content hash unless the caller names its own (WebDAV's is shorter).
 */
export async function sendFileBytes(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, file: FileRow, payerId: string, etag = `"${file.hash}"`) {
  reply
    .header('ETag', etag)
    .header('Accept-Ranges', 'bytes')
    .header('Cache-Control', 'private, max-age=3600')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Content-Disposition', contentDisposition(file.name, { type: 'attachment' }))
    .header('Content-Type', ACTIVE.test(file.mime_type) ? 'application/octet-stream' : file.mime_type || 'application/octet-stream');
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();

  const size = file.size;
  const rangeHeader = req.headers.range;
  const ifRange = req.headers['if-range'];
  if (rangeHeader && (!ifRange || ifRange === etag) && size > 0) {
    const ranges = rangeParser(size, rangeHeader, { combine: true });
    if (ranges === -1) {
      return reply.status(416).header('Content-Range', `bytes */${size}`).header('Content-Type', 'application/json; charset=utf-8').removeHeader('Content-Disposition').send(errorBody('invalid_argument', 'The requested range is not satisfiable.'));
    }
    if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
      const { start, end } = ranges[0]!;
      const charge = await chargeUnlessHead(ctx, req, payerId, end - start + 1);
      if (proxySends(ctx, req, size)) return accelRedirect(ctx, reply, file);
      reply.status(206).header('Content-Range', `bytes ${start}-${end}/${size}`).header('Content-Length', end - start + 1);
      return reply.send(metered(ctx, reply, ctx.blobs.read(file.hash, { start, end }), charge));
    }
  }
  const charge = await chargeUnlessHead(ctx, req, payerId, size);
  if (size > 0 && !rangeHeader && proxySends(ctx, req, size)) return accelRedirect(ctx, reply, file);
  reply.header('Content-Length', size);
  if (size === 0) return reply.send('');
  return reply.send(metered(ctx, reply, ctx.blobs.read(file.hash), charge));
}

/**
 * HAUL_ACCEL_REDIRECT: whether the proxy in front would send exactly the bytes just charged, so it may send them.
 * Only a GET from the local store; a Range only when it is a single range as written (a proxy answers several with a
 * multipart body where Haul sends the whole file), and no condition the proxy would judge against its own file's
 * ETag or date (If-Range, If-Modified-Since, If-Match, If-Unmodified-Since): a proxy that judged If-Range so would
 * send the whole file for a range's charge. Those few requests Haul answers itself.
 */
function proxySends(ctx: AppContext, req: FastifyRequest, size: number): boolean {
  if (!ctx.config.accelRedirect || req.method !== 'GET' || !(ctx.blobs instanceof LocalBlobStore)) return false;
  const h = req.headers;
  if (h['if-range'] || h['if-modified-since'] || h['if-match'] || h['if-unmodified-since']) return false;
  if (!h.range) return true;
  const ranges = rangeParser(size, h.range);
  return Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1;
}

/**
 * The answer that hands the bytes to the proxy: Haul's headers, `X-Accel-Redirect: <prefix>/ab/cd/<hash>` and no body.
 * The proxy serves that path from the blob folder in an internal-only location (docs/decisions/serving-bytes.md, deploy/Caddyfile),
 * answering the Range itself; the allowance was charged before, and what a client leaves unread is not given back.
 */
function accelRedirect(ctx: AppContext, reply: FastifyReply, file: FileRow) {
  const key = (ctx.blobs as LocalBlobStore).keyOf(file.hash!);
  return reply.status(200).header('X-Accel-Redirect', `${ctx.config.accelRedirect}/${key}`).header('Content-Length', 0).send('');
}

/** How long a presigned GET works: enough to start the download, too short to pass around. */
export const PRESIGNED_TTL_SECONDS = 300;

/**
 * HAUL_S3_PRESIGNED_DOWNLOADS: after the link's checks, a 302 to a short-lived presigned GET of the object, answering
 * with the same disposition and type as Haul would. The bytes leave the bucket directly, so the allowance is charged
 * up front for what is asked (the range, else the whole file) and nothing is given back for a download cut short.
 */
export async function redirectToObject(ctx: AppContext, store: S3BlobStore, req: FastifyRequest, reply: FastifyReply, file: FileRow, payerId: string) {
  const ranges = req.headers.range && file.size > 0 ? rangeParser(file.size, req.headers.range, { combine: true }) : -2;
  const bytes = Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0]!.end - ranges[0]!.start + 1 : file.size;
  await chargeForDownload(ctx, payerId, bytes);
  const url = await store.presignedGet(file.hash, PRESIGNED_TTL_SECONDS, {
    contentDisposition: contentDisposition(file.name, { type: 'attachment' }),
    contentType: ACTIVE.test(file.mime_type) ? 'application/octet-stream' : file.mime_type || 'application/octet-stream',
  });
  return reply.status(302).header('Cache-Control', 'no-store').header('Location', url).send();
}

/** A HEAD sends no body, so nothing is counted. */
/** No payer (''): an operator reviewing a report, whose looks are nobody's downloads. */
const chargeUnlessHead = (ctx: AppContext, req: FastifyRequest, payerId: string, bytes: number): Promise<Charge> =>
  req.method === 'HEAD' || !payerId ? Promise.resolve({ keys: [], bytes: 0 }) : chargeForDownload(ctx, payerId, bytes);
