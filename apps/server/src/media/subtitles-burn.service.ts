/**
 * Asking for an image subtitle track burned into the picture (signed in), and serving the result through a signed
 * link signed over "<video>/burned/<track>", which no path parameter can hold: it opens neither the video's own
 * links, nor its WebVTT, nor another track.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';
import { findFile } from '../files/files.repository.js';
import { HttpError, notFound } from '../http/errors.js';
import { publicUrl } from '../http/public-url.js';
import { toRfc3339 } from '../lib/time.js';
import { signQuery, verifyQuery, type LinkQuery, type Signer } from './media-links.js';
import { probeContent } from './probe.service.js';
import { burnedBlob, burnStatus, startBurn } from './subtitle-burn.js';
import { subtitleStreams } from './subtitle-streams.js';
import { isLiveVideo } from './subtitles.service.js';

const EMBEDDED = /^s(\d{1,4})$/;

export interface BurnOut {
  track_id: string;
  state: 'running' | 'ready' | 'failed';
  message: string;
  link: { url: string; expire: string };
}

function burnedLink(ctx: AppContext, signer: Signer, videoId: string, trackId: string) {
  const { query, expires } = signQuery(ctx, 'media', signer, `${videoId}/burned/${trackId}`);
  const url = `${publicUrl(ctx)}/drive/v1/subtitles/${encodeURIComponent(videoId)}/${encodeURIComponent(trackId)}/burned?${query}`;
  return { url, expire: toRfc3339(expires * 1000) };
}

/** Where the burn-in of the caller's video's image track stands; starts it when it was never made. */
export async function requestBurn(ctx: AppContext, log: FastifyBaseLogger, signer: Signer, videoId: string, trackId: string): Promise<BurnOut> {
  const video = await findFile(ctx.db, signer.userId, videoId);
  if (!isLiveVideo(video)) throw notFound('No such video of yours.');
  const m = EMBEDDED.exec(trackId);
  const index = m ? Number(m[1]) : -1;
  const streams = await subtitleStreams(ctx, video.hash);
  if (!streams.some((s) => s.index === index && s.kind === 'image')) {
    throw new HttpError(400, 'invalid_argument', 'Only an image subtitle track of this video (s and its stream index) can be burned in.');
  }
  const status = await burnStatus(ctx, video.hash, index);
  const none = { url: '', expire: '' };
  if (status.state === 'ready') return { track_id: trackId, state: 'ready', message: '', link: burnedLink(ctx, signer, video.id, trackId) };
  if (status.state === 'failed') return { track_id: trackId, state: 'failed', message: status.message, link: none };
  if (status.state === 'none') {
    const probe = await probeContent(ctx, video.hash, 'video');
    const duration = probe.probe?.kind === 'video' ? probe.probe.duration : 0;
    startBurn(ctx, video.hash, index, duration).catch((err: unknown) => log.warn({ err }, 'subtitle burn-in failed'));
  }
  return { track_id: trackId, state: 'running', message: '', link: none };
}

/** The MP4 behind a signed burn-in link; null when the link does not hold or there is no such burn-in. */
export async function burnedVideo(ctx: AppContext, videoId: string, trackId: string, q: LinkQuery): Promise<{ hash: string; size: number } | null> {
  if (!(await verifyQuery(ctx, 'media', `${videoId}/burned/${trackId}`, q))) return null;
  const video = await findFile(ctx.db, q.u!, videoId);
  const m = EMBEDDED.exec(trackId);
  if (!isLiveVideo(video) || !m) return null;
  return burnedBlob(ctx, video.hash, Number(m[1]));
}
