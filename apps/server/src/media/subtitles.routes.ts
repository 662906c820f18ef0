/**
 * Subtitles: the list of a video's tracks (signed in, the drive's scope) and each track's WebVTT through a signed
 * link, which a <track> element can follow without a token, as the <video> follows its own.
 */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, errorBody } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { sendBytes } from './media-blobs.js';
import { MediaToolError } from './media-tools.js';
import { burnedVideo, requestBurn } from './subtitles-burn.service.js';
import { listSubtitleTracks, subtitleVtt } from './subtitles.service.js';

export async function subtitlesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.getSubtitleVtt, async (req, reply) => {
    let found;
    try {
      found = await subtitleVtt(ctx, req.params.fileId, req.params.trackId, req.query, req.headers['accept-language']);
    } catch (err) {
      if (err instanceof MediaToolError) return reply.status(503).send(errorBody('unavailable', err.message));
      throw err;
    }
    if (!found) {
      return reply
        .status(404)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(errorBody('file_not_found', 'The link has expired, or the video or its subtitles are no longer there.'));
    }
    reply
      .header('Content-Type', 'text/vtt; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      // Opened by itself, the text is a sandboxed document that runs nothing.
      .header('Content-Security-Policy', 'sandbox')
      .header('Cache-Control', 'private, max-age=3600')
      .header('Vary', 'Accept-Language')
      .header('ETag', found.etag);
    if (req.headers['if-none-match'] === found.etag) return reply.status(304).send();
    return reply.send(found.vtt);
  });

  serve(app, C.getBurnedVideo, async (req, reply) => {
    const blob = await burnedVideo(ctx, req.params.fileId, req.params.trackId, req.query);
    if (!blob) {
      return reply
        .status(404)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(errorBody('file_not_found', 'The link has expired, or the video or its burned-in subtitles are no longer there.'));
    }
    reply.header('Content-Type', 'video/mp4').header('Content-Security-Policy', 'sandbox').header('Cache-Control', 'private, max-age=3600');
    return sendBytes(req, reply, blob.size, `"${blob.hash}"`, (range) => ctx.blobs.read(blob.hash, range));
  });

  await app.register(async (scope) => {
    requireAuth(scope, ctx, { appScope: 'pan' });
    serve(scope, C.listSubtitles, async (req) => ({
      tracks: await listSubtitleTracks(ctx, req.log, req.caller, req.params.id, req.query.file_id),
    }));
    serve(scope, C.burnSubtitles, async (req, reply) => {
      try {
        return await requestBurn(ctx, req.log, req.caller, req.params.id, req.params.trackId);
      } catch (err) {
        if (err instanceof MediaToolError) return reply.status(503).send(errorBody('unavailable', err.message));
        throw err;
      }
    });
  });
}
