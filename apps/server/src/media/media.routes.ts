/**
 * Signed media routes (no sign-in; the signature is the permission, checked against the live file each time):
 * thumbnails, a video or audio file's original bytes served inline, and HLS renditions (playlist, init, segments).
 */
import { readFile, stat } from 'node:fs/promises';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONTRACT as C, errorBody, mediaTypeOf, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow } from '../db/schema.js';
import { findFile } from '../files/files.repository.js';
import { serve } from '../http/contract.js';
import { parsePlaylist, renderPlaylist, SEGMENT_NAME } from './hls-playlist.js';
import { PLAYLIST_NAME } from './hls-transcode.js';
import { fileOpener, mediaDir, sendBytes } from './media-blobs.js';
import { verifyQuery, type LinkPurpose, type LinkQuery } from './media-links.js';
import { findRendition, segmentsOf } from './media.repository.js';
import { isLiveContent } from './media.service.js';
import { MediaToolError } from './media-tools.js';
import { originContentType, thumbnailSize } from './playback.policy.js';
import { thumbnailOf } from './thumbnails.service.js';

type Kind = 'video' | 'audio' | 'image';
const RENDITION = /^\d{3,4}p$/;

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
    reply
      .header('Content-Type', originContentType(file.name, mediaTypeOf(file.name, file.mime_type) as 'video' | 'audio'))
      .header('Content-Disposition', contentDisposition(file.name, { type: 'inline' }))
      .header('Content-Security-Policy', 'sandbox')
      .header('Cache-Control', 'private, max-age=3600');
    return sendBytes(req, reply, file.size, `"${file.hash}"`, (range) => ctx.blobs.read(file.hash, range));
  });

  serve(app, C.getMediaPlaylist, async (req, reply) => {
    const file = await signedFile('media', req.params.fileId, req.query, ['video']);
    if (!file) return gone(reply);
    const r = RENDITION.test(req.params.mediaId) ? await findRendition(ctx.db, file.hash, req.params.mediaId) : undefined;
    if (!r) return gone(reply, 'This quality is not available.');
    let text: string;
    if (r.phase === PHASE.COMPLETE) {
      text = r.playlist;
      reply.header('Cache-Control', 'private, max-age=3600');
    } else if (r.phase === PHASE.RUNNING && r.scratch) {
      // The growing EVENT playlist; players reload it until it ends.
      text = await readFile(mediaDir(ctx, 'scratch', r.scratch, PLAYLIST_NAME), 'utf8').catch(() => '');
      reply.header('Cache-Control', 'no-cache');
    } else {
      return gone(reply, r.phase === PHASE.ERROR ? `This quality could not be made: ${r.message}` : 'This quality is not ready yet.');
    }
    return reply
      .header('Content-Type', 'application/vnd.apple.mpegurl')
      .header('X-Content-Type-Options', 'nosniff')
      .send(renderPlaylist(parsePlaylist(text), sameQuery(req.query)));
  });

  serve(
    app,
    C.getMediaSegment,
    async (req, reply) => {
      const { mediaId, segment } = req.params;
      if (!RENDITION.test(mediaId) || !SEGMENT_NAME.test(segment)) return gone(reply, 'No such segment.');
      const file = await signedFile('media', req.params.fileId, req.query, ['video']);
      if (!file) return gone(reply);
      const segmentHeaders = (cache: string) =>
        reply.header('Content-Type', 'video/mp4').header('Content-Security-Policy', 'sandbox').header('Cache-Control', cache);
      for (let look = 0; look < 2; look++) {
        const r = await findRendition(ctx.db, file.hash, mediaId);
        if (!r) break;
        if (r.phase === PHASE.COMPLETE) {
          const blob = segmentsOf(r)[segment];
          if (!blob) break;
          segmentHeaders('private, max-age=3600');
          return sendBytes(req, reply, blob.size, `"${blob.hash}"`, (range) => ctx.blobs.read(blob.hash, range));
        }
        if (r.phase !== PHASE.RUNNING || !r.scratch) break;
        const path = mediaDir(ctx, 'scratch', r.scratch, segment);
        const info = await stat(path).catch(() => null);
        if (info) {
          segmentHeaders('no-cache');
          return sendBytes(req, reply, info.size, `"${r.scratch}-${segment}-${info.size}"`, fileOpener(path));
        }
        // The rendition may have just finished and left scratch space: look at the row once more.
      }
      return gone(reply, 'No such segment.');
    },
  );
}
