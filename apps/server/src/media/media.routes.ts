/**
 * Signed media routes (no sign-in; the signature is the permission, checked against the live file each time):
 * thumbnails, a video or audio file's original bytes served inline, and HLS renditions (playlist, init, segments).
 */
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONTRACT as C, errorBody, mediaTypeOf } from '@haul/shared';
import type { AppContext } from '../context.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';
import type { FileRow, MediaRenditionRow } from '../db/schema.js';
import { findFile } from '../files/files.repository.js';
import { noteFileAccess } from '../events/access-events.js';
import { serve } from '../http/contract.js';
import { renderPlaylist, SEGMENT_NAME } from './hls-playlist.js';
import { sendBytes } from './media-blobs.js';
import { verifyQuery, type LinkPurpose, type LinkQuery } from './media-links.js';
import { findRendition } from './media.repository.js';
import { isLiveContent } from './media.service.js';
import { MediaToolError } from './media-tools.js';
import { needsPremium, originContentType, thumbnailSize } from './playback.policy.js';
import { playlistHeaders, RENDITION, renditionPlaylist, sendSegment } from './rendition-serving.js';
import { thumbnailOf } from './thumbnails.service.js';

type Kind = 'video' | 'audio' | 'image';
export async function mediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const gone = (reply: FastifyReply, message = 'The link has expired or the file no longer exists.') =>
    reply.status(404).header('Content-Type', 'application/json; charset=utf-8').send(errorBody('file_not_found', message));

  /** The file a signed query opens, if the signature holds and the file is still live and of an allowed kind. */
  const signedFile = async (purpose: LinkPurpose, fileId: string, q: LinkQuery, kinds: Kind[]): Promise<FileRow | null> => {
    if (!(await verifyQuery(ctx, purpose, fileId, q))) return null;
    const file = await findFile(ctx.db, q.u!, fileId);
    if (!file || !isLiveContent(file)) return null;
    const kind = mediaTypeOf(file.name, file.mime_type);
    return kind && kinds.includes(kind) ? file : null;
  };
  const sameQuery = (q: LinkQuery) => `u=${encodeURIComponent(q.u!)}&e=${q.e}&s=${q.s}`;

  serve(app, C.getThumbnail, async (req, reply) => {
    const file = await signedFile('thumb', req.params.fileId, req.query, ['image', 'video', 'audio']);
    if (!file) return gone(reply);
    let thumb;
    try {
      thumb = await thumbnailOf(ctx, file, thumbnailSize(req.query.size));
    } catch (err) {
      if (err instanceof MediaToolError) return reply.status(503).send(errorBody('unavailable', err.message));
      throw err;
    }
    if (!thumb) return gone(reply, 'The file has no thumbnail.');
    const etag = `"${thumb.thumb_hash}"`;
    reply
      .header('Content-Type', thumb.mime_type)
      .header('ETag', etag)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', 'sandbox')
      // The bytes behind a thumbnail never change; the signed URL bounds how long anyone may ask for them.
      .header('Cache-Control', 'private, max-age=86400, immutable');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    const chunks: Buffer[] = [];
    for await (const c of ctx.blobs.read(thumb.thumb_hash)) chunks.push(c as Buffer);
    return reply.send(Buffer.concat(chunks));
  });

  serve(app, C.getMediaOrigin, async (req, reply) => {
    const file = await signedFile('media', req.params.fileId, req.query, ['video', 'audio']);
    if (!file) return gone(reply);
    await noteFileAccess(ctx, req, req.query.u!, file, 'TYPE_VIEW');
    reply
      .header('Content-Type', originContentType(file.name, mediaTypeOf(file.name, file.mime_type) as 'video' | 'audio'))
      .header('Content-Disposition', contentDisposition(file.name, { type: 'inline' }))
      .header('Content-Security-Policy', 'sandbox')
      .header('Cache-Control', 'private, max-age=3600');
    return sendBytes(req, reply, file.size, `"${file.hash}"`, (range) => ctx.blobs.read(file.hash, range));
  });

  /** A rendition above the free plan's resolution, asked for through a link made for an account that is not premium. */
  const locked = async (r: MediaRenditionRow, userId: string) => {
    if (!needsPremium(r, ctx.config.freeMaxResolution)) return false;
    const user = await findUserById(ctx.db, userId);
    return !user || !isPremium(user, ctx.clock.now());
  };
  const premiumOnly = (reply: FastifyReply) =>
    reply
      .status(403)
      .header('Content-Type', 'application/json; charset=utf-8')
      .send(errorBody('permission_denied', 'This quality needs a premium plan: upgrade to play it.'));

  serve(app, C.getMediaPlaylist, async (req, reply) => {
    const file = await signedFile('media', req.params.fileId, req.query, ['video']);
    if (!file) return gone(reply);
    const r = RENDITION.test(req.params.mediaId) ? await findRendition(ctx.db, file.hash, req.params.mediaId) : undefined;
    if (!r) return gone(reply, 'This quality is not available.');
    if (await locked(r, req.query.u!)) return premiumOnly(reply);
    await noteFileAccess(ctx, req, req.query.u!, file, 'TYPE_VIEW');
    const found = await renditionPlaylist(ctx, r);
    if ('missing' in found) return gone(reply, found.missing);
    return playlistHeaders(reply, found.growing).send(renderPlaylist(found.playlist, sameQuery(req.query)));
  });

  serve(app, C.getMediaSegment, async (req, reply) => {
    const { mediaId, segment } = req.params;
    if (!RENDITION.test(mediaId) || !SEGMENT_NAME.test(segment)) return gone(reply, 'No such segment.');
    const file = await signedFile('media', req.params.fileId, req.query, ['video']);
    if (!file) return gone(reply);
    const r = await findRendition(ctx.db, file.hash, mediaId);
    if (r && (await locked(r, req.query.u!))) return premiumOnly(reply);
    return (await sendSegment(ctx, req, reply, file.hash, mediaId, segment)) ?? gone(reply, 'No such segment.');
  });
}
