/**
 * A shared video's renditions for its visitors (share/media/…). Checked at every request: the link's signature, the
 * share still open, the file still in it, the visitor's playback (whole or preview, which qualities).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTRACT as C, errorBody, mediaTypeOf, SHARE_STATUS } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow, MediaRenditionRow } from '../db/schema.js';
import { serve } from '../http/contract.js';
import { cutAt, renderPlaylist, SEGMENT_NAME, segmentStart } from '../media/hls-playlist.js';
import { findRendition } from '../media/media.repository.js';
import { isLiveContent } from '../media/media.service.js';
import { needsPremium } from '../media/playback.policy.js';
import { playlistHeaders, RENDITION, renditionPlaylist, sendSegment } from '../media/rendition-serving.js';
import { PassCodeGuard } from './pass-code-guard.js';
import { previewSecondsOf, sharePlaybackOf } from './share-playback.js';
import { shareMediaLinkValid } from './share-secrets.js';
import { requireInShare } from './share-scope.js';
import { openShare } from './share-visits.service.js';

type Query = { share_id?: string; e?: string; s?: string; p?: string };
interface Allowed {
  file: FileRow;
  rendition: MediaRenditionRow;
  /** Seconds the visitor may play; Infinity for the whole video. */
  limit: number;
}

export async function shareMediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Pass-code tries are counted in the database: this guard and the shares routes' one count as one.
  const guard = new PassCodeGuard(ctx);
  const json = (reply: FastifyReply, status: number) => reply.status(status).header('Content-Type', 'application/json; charset=utf-8');
  const gone = (reply: FastifyReply, message = 'The link has expired, the share is closed or the file has left it.') =>
    json(reply, 404).send(errorBody('file_not_found', message));
  const refused = (reply: FastifyReply, message: string) => json(reply, 403).send(errorBody('permission_denied', message));
  const queryOf = (q: Query) => `share_id=${q.share_id}&e=${q.e}&s=${encodeURIComponent(q.s ?? '')}${q.p ? `&p=${encodeURIComponent(q.p)}` : ''}`;

  /** The rendition a signed query opens and how much of it the visitor may play; a reply when refused. */
  const allowed = async (req: FastifyRequest, reply: FastifyReply, fileId: string, mediaId: string, q: Query): Promise<Allowed | FastifyReply> => {
    if (!q.share_id || !RENDITION.test(mediaId)) return gone(reply);
    const opened = await openShare(ctx, guard, { shareId: q.share_id, address: req.ip }, { items: false, codeProven: true });
    const share = opened.share;
    if (opened.status !== SHARE_STATUS.OK || !share || !shareMediaLinkValid(ctx, share, fileId, q)) return gone(reply);
    const found = await requireInShare(ctx.db, share, fileId, opened.rootIds).catch(() => null);
    const file = found?.file;
    if (!file || !isLiveContent(file) || mediaTypeOf(file.name, file.mime_type) !== 'video') return gone(reply);
    const playback = await sharePlaybackOf(ctx, share, q.p);
    if (!playback) return gone(reply);
    const rendition = await findRendition(ctx.db, file.hash, mediaId);
    if (!rendition) return gone(reply, 'This quality is not available.');
    if (!playback.premium && needsPremium(rendition, ctx.config.freeMaxResolution)) {
      return refused(reply, 'This quality needs a premium plan: upgrade to play it.');
    }
    return { file, rendition, limit: playback.whole ? Infinity : await previewSecondsOf(ctx, file) };
  };

  serve(app, C.getShareMediaPlaylist, async (req, reply) => {
    const a = await allowed(req, reply, req.params.fileId, req.params.mediaId, req.query);
    if (!('file' in a)) return a;
    const found = await renditionPlaylist(ctx, a.rendition);
    if ('missing' in found) return gone(reply, found.missing);
    const playlist = Number.isFinite(a.limit) ? cutAt(found.playlist, a.limit) : found.playlist;
    return playlistHeaders(reply, found.growing && !playlist.ended).send(renderPlaylist(playlist, queryOf(req.query)));
  });

  serve(app, C.getShareMediaSegment, async (req, reply) => {
    const { fileId, mediaId, segment } = req.params;
    if (!SEGMENT_NAME.test(segment)) return gone(reply, 'No such segment.');
    const a = await allowed(req, reply, fileId, mediaId, req.query);
    if (!('file' in a)) return a;
    if (Number.isFinite(a.limit) && segment !== 'init.mp4') {
      // Only what the visitor's playlist names: a segment that starts at or past the allowed point is refused.
      const found = await renditionPlaylist(ctx, a.rendition);
      const start = 'missing' in found ? -1 : segmentStart(found.playlist, segment);
      if (start < 0) return gone(reply, 'No such segment.');
      if (start >= a.limit) return refused(reply, 'This part is past the preview: save the video to your drive, or go premium, to watch it all.');
    }
    return (await sendSegment(ctx, req, reply, a.file.hash, mediaId, segment)) ?? gone(reply, 'No such segment.');
  });
}
