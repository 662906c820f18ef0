/** The media side of a file for the API: its `medias`, its probe params, thumbnail links, and starting transcodes. */
import { existsSync } from 'node:fs';
import { FILE_KIND, mediaTypeOf, PHASE, type DriveMedia, type MediaPhase } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow, MediaRenditionRow } from '../db/schema.js';
import { PLAYLIST_NAME } from './hls-transcode.js';
import { mediaDir } from './media-blobs.js';
import { mediaLink, thumbnailLink, type Signer } from './media-links.js';
import { isTransient } from './media-tools.js';
import type { AudioProbe, VideoProbe } from './media-probe.js';
import { audioWithCover, enqueueJob, findJob, listRenditions, planRenditions, retryJob } from './media.repository.js';
import { isBrowserPlayableAudio, isBrowserPlayableVideo, needsPremium, renditionPlan, resolutionName, type ThumbnailSize } from './playback.policy.js';
import { probeContent } from './probe.service.js';

export interface FileMedia {
  medias: DriveMedia[];
  /** Probe facts merged into the file's params: duration (seconds), width, height. */
  params: Record<string, string>;
}

/** Who is looking and where their links point: the drive's own signed links, or a share's. */
export interface MediaViewer {
  /** The original's link; null when this viewer is not offered the original (a limited share visitor's video). */
  origin: DriveMedia['link'] | null;
  /** The link of a rendition's playlist. */
  rendition: (name: string) => DriveMedia['link'];
  /** Plays renditions above the free plan's resolution. */
  premium: boolean;
}

/** The viewer of a file in its own drive: links signed for the account. */
export function driveViewer(ctx: AppContext, signer: Signer, fileId: string, premium: boolean): MediaViewer {
  return {
    origin: mediaLink(ctx, signer, fileId, 'origin'),
    rendition: (name) => mediaLink(ctx, signer, fileId, `${name}/index.m3u8`),
    premium,
  };
}

const NO_LINK = { url: '', expire: '' };

/** True for a live, complete file with content (what media links may point at). */
export function isLiveContent(file: FileRow): boolean {
  return file.kind === FILE_KIND && file.trashed === 0 && file.phase === PHASE.COMPLETE && file.hash !== '';
}

/** True for a live video, audio or image file: one `describeFileMedia` has something to say about. */
export const hasMedia = (file: FileRow): boolean => isLiveContent(file) && mediaTypeOf(file.name, file.mime_type) !== null;

/**
 * A thumbnail link maker for listings: signing only, no I/O per row. Images and videos get one; a song gets one only
 * when its content is in `coverArt` (see songsWithCover), so no link points at a cover that is not there.
 */
export function thumbnailLinker(ctx: AppContext, signer: Signer, size: ThumbnailSize, coverArt: ReadonlySet<string> = new Set()): (row: FileRow) => string {
  return (row) => {
    if (!isLiveContent(row)) return '';
    const kind = mediaTypeOf(row.name, row.mime_type);
    if (kind === 'image' || kind === 'video' || (kind === 'audio' && coverArt.has(row.hash))) return thumbnailLink(ctx, signer, row.id, size);
    return '';
  };
}

/** The contents of the songs among `rows` known (from their probe) to carry cover art: one query for a page. */
export function songsWithCover(ctx: AppContext, rows: FileRow[]): Promise<Set<string>> {
  const songs = rows.filter((r) => isLiveContent(r) && mediaTypeOf(r.name, r.mime_type) === 'audio');
  return songs.length ? audioWithCover(ctx.db, songs.map((r) => r.hash)) : Promise.resolve(new Set());
}

/**
 * `medias` and probe params of a video, audio or image file (null for anything else). With `play`, a video's
 * transcode is queued unless it is done, running, or turned off; `onQueued` then wakes the worker.
 */
export async function describeFileMedia(ctx: AppContext, viewer: MediaViewer, file: FileRow, opts: { play: boolean; onQueued?: () => void }): Promise<FileMedia | null> {
  const kind = mediaTypeOf(file.name, file.mime_type);
  if (!kind || !isLiveContent(file)) return null;
  const { probe, error } = await probeContent(ctx, file.hash, kind);
  if (kind === 'image') {
    return { medias: [], params: probe?.kind === 'image' ? { width: String(probe.width), height: String(probe.height) } : {} };
  }
  if (kind === 'audio') {
    const audio = probe?.kind === 'audio' ? probe : null;
    return { medias: [audioOrigin(file, audio, error, viewer.origin ?? NO_LINK)], params: audio?.duration ? { duration: seconds(audio.duration) } : {} };
  }
  const video = probe?.kind === 'video' ? probe : null;
  if (opts.play && ctx.config.transcode !== 'off') {
    const queued = video
      ? await enqueueJob(ctx.db, file.hash, ctx.clock.now(), file.user_id)
      : error && !isTransient(error)
        ? await enqueueJob(ctx.db, file.hash, ctx.clock.now(), file.user_id, error)
        : false;
    if (queued && video) {
      await planRenditions(ctx.db, file.hash, renditionPlan(video), video.audioCodec !== '', ctx.clock.now());
      opts.onQueued?.();
    }
  }
  const origin = videoOrigin(file, video, error, viewer.origin ?? NO_LINK);
  if (!viewer.origin) origin.is_visible = false;
  const medias: DriveMedia[] = [origin];
  let job = await findJob(ctx.db, file.hash);
  // A transcode that failed for a passing reason (a time-out on a busy machine) is tried again when played again.
  if (opts.play && video && ctx.config.transcode !== 'off' && job?.phase === PHASE.ERROR && isTransient(job.message)) {
    if (await retryJob(ctx.db, file.hash, ctx.clock.now())) opts.onQueued?.();
    job = await findJob(ctx.db, file.hash);
  }
  if (job && video) {
    const rows = await listRenditions(ctx.db, file.hash);
    for (const r of rows) medias.push(rendition(ctx, viewer, video, r));
    // A job queued on upload plans its renditions when it starts; until then they show as pending.
    if (rows.length === 0 && job.phase === PHASE.PENDING) {
      for (const p of renditionPlan(video)) medias.push(pendingRendition(ctx, viewer, file, video, p));
    }
  }
  const params: Record<string, string> = video
    ? { width: String(video.width), height: String(video.height), ...(video.duration ? { duration: seconds(video.duration) } : {}) }
    : {};
  return { medias, params };
}

const seconds = (s: number) => String(Math.round(s * 1000) / 1000);

function videoOrigin(file: FileRow, probe: VideoProbe | null, error: string, link: DriveMedia['link']): DriveMedia {
  return {
    media_id: 'origin',
    media_name: 'Original',
    resolution_name: probe ? resolutionName(probe) : 'origin',
    is_origin: true,
    is_visible: probe ? isBrowserPlayableVideo(probe, file.name) : false,
    need_more_quota: false,
    link,
    video: probe
      ? { video_codec: probe.videoCodec, audio_codec: probe.audioCodec, width: probe.width, height: probe.height, duration: probe.duration, bit_rate: probe.bitRate }
      : null,
    phase: probe ? PHASE.COMPLETE : PHASE.ERROR,
    progress: probe ? 100 : 0,
    message: probe ? '' : error,
  };
}

function audioOrigin(file: FileRow, probe: AudioProbe | null, error: string, link: DriveMedia['link']): DriveMedia {
  return {
    media_id: 'origin',
    media_name: 'Original',
    resolution_name: 'origin',
    is_origin: true,
    is_visible: probe ? isBrowserPlayableAudio(probe) : false,
    need_more_quota: false,
    link,
    video: null,
    ...(probe ? { audio: { codec: probe.codec, duration: probe.duration, title: probe.title, artist: probe.artist, album: probe.album } } : {}),
    phase: probe ? PHASE.COMPLETE : PHASE.ERROR,
    progress: probe ? 100 : 0,
    message: probe ? '' : error,
  };
}

function rendition(ctx: AppContext, viewer: MediaViewer, probe: VideoProbe, r: MediaRenditionRow): DriveMedia {
  // A rendition still being written plays once its growing playlist names a first segment.
  const playable = r.phase === PHASE.COMPLETE || (r.phase === PHASE.RUNNING && r.scratch !== '' && existsSync(mediaDir(ctx, 'scratch', r.scratch, PLAYLIST_NAME)));
  // Listed all the same, so the player can offer it with a premium mark; the link is what is withheld.
  const locked = !viewer.premium && needsPremium(r, ctx.config.freeMaxResolution);
  return {
    media_id: r.name,
    media_name: r.name,
    resolution_name: r.name,
    is_origin: false,
    is_visible: playable,
    need_more_quota: locked,
    link: locked ? NO_LINK : viewer.rendition(r.name),
    video: { video_codec: 'h264', audio_codec: r.has_audio ? 'aac' : '', width: r.width, height: r.height, duration: probe.duration, bit_rate: r.bandwidth },
    phase: r.phase as MediaPhase,
    progress: r.progress,
    message: r.message,
  };
}

function pendingRendition(ctx: AppContext, viewer: MediaViewer, file: FileRow, probe: VideoProbe, p: ReturnType<typeof renditionPlan>[number]): DriveMedia {
  return rendition(ctx, viewer, probe, {
    hash: file.hash,
    name: p.name,
    position: p.position,
    phase: PHASE.PENDING,
    progress: 0,
    message: '',
    width: p.width,
    height: p.height,
    bandwidth: p.bandwidth,
    has_audio: probe.audioCodec ? 1 : 0,
    scratch: '',
    playlist: '',
    segments: '{}',
    updated_time: 0,
  });
}
