/** Serving a rendition's playlist and segments, finished or still being written; shared by the drive's and a share's routes. */
import { readFile, stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { MediaRenditionRow } from '../db/schema.js';
import { parsePlaylist, type ParsedPlaylist } from './hls-playlist.js';
import { PLAYLIST_NAME } from './hls-transcode.js';
import { fileOpener, mediaDir, sendBytes } from './media-blobs.js';
import { findRendition, segmentsOf } from './media.repository.js';

/** A rendition's name, such as 720p. */
export const RENDITION = /^\d{3,4}p$/;

export type RenditionPlaylist = { playlist: ParsedPlaylist; growing: boolean } | { missing: string };

/** A rendition's playlist as stored, or as it grows while ffmpeg writes it; else why there is none. */
export async function renditionPlaylist(ctx: AppContext, r: MediaRenditionRow): Promise<RenditionPlaylist> {
  if (r.phase === PHASE.COMPLETE) return { playlist: parsePlaylist(r.playlist), growing: false };
  if (r.phase === PHASE.RUNNING && r.scratch) {
    const text = await readFile(mediaDir(ctx, 'scratch', r.scratch, PLAYLIST_NAME), 'utf8').catch(() => '');
    return { playlist: parsePlaylist(text), growing: true };
  }
  return { missing: r.phase === PHASE.ERROR ? `This quality could not be made: ${r.message}` : 'This quality is not ready yet.' };
}

/** Headers of every playlist answer; `growing` ones must be reloaded, not cached. */
export function playlistHeaders(reply: FastifyReply, growing: boolean): FastifyReply {
  return reply
    .header('Cache-Control', growing ? 'no-cache' : 'private, max-age=3600')
    .header('Content-Type', 'application/vnd.apple.mpegurl')
    .header('X-Content-Type-Options', 'nosniff');
}

/**
 * Sends a segment of a rendition (from the blob store once finished, from scratch space while written); null when
 * there is no such segment.
 */
export async function sendSegment(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  hash: string,
  mediaId: string,
  segment: string,
): Promise<FastifyReply | null> {
  const segmentHeaders = (cache: string) =>
    reply.header('Content-Type', 'video/mp4').header('Content-Security-Policy', 'sandbox').header('Cache-Control', cache);
  for (let look = 0; look < 2; look++) {
    const r = await findRendition(ctx.db, hash, mediaId);
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
  return null;
}
