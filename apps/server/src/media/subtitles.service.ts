/**
 * A video's subtitle tracks for the player (inside it, beside it, picked from the drive) with signed WebVTT links,
 * and each track's WebVTT. Links are media links signed over the video and the track together ("<video>/subtitles/
 * <track>", which no path parameter can hold), so a video's own link never opens its subtitles nor the reverse.
 */
import type { FastifyBaseLogger } from 'fastify';
import { FILE_KIND, mediaTypeOf } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow } from '../db/schema.js';
import { findFile } from '../files/files.repository.js';
import { HttpError, notFound } from '../http/errors.js';
import { publicUrl } from '../http/public-url.js';
import { toRfc3339 } from '../lib/time.js';
import { signQuery, verifyQuery, type LinkQuery, type Signer } from './media-links.js';
import { isLiveContent } from './media.service.js';
import { convertTextTracks, embeddedVtt } from './subtitle-extract.js';
import { acceptedLanguages, decodeSubtitleBytes, legacyEncoding, parseSubtitles, subtitleFormatOf, toWebVtt } from './subtitle-formats.js';
import { findSidecars, isSubtitleFile, sidecarNameParts } from './subtitle-sidecars.js';
import { subtitleStreams } from './subtitle-streams.js';

/** One track as the list answers it (the contract's SubtitleTrack). */
export interface SubtitleTrackOut {
  id: string;
  source: 'embedded' | 'sidecar' | 'file';
  kind: 'text' | 'image';
  codec: string;
  language: string;
  title: string;
  name: string;
  file_id: string;
  default: boolean;
  forced: boolean;
  link: { url: string; expire: string };
}

/** Subtitle files larger than this are refused: a real one is a few hundred KiB. */
export const MAX_SUBTITLE_BYTES = 8 * 1024 * 1024;
const EMBEDDED = /^s(\d{1,4})$/;
const PICKED = /^f(.{1,64})$/;

export const isLiveVideo = (f: FileRow | undefined): f is FileRow => !!f && isLiveContent(f) && mediaTypeOf(f.name, f.mime_type) === 'video';

function trackLink(ctx: AppContext, signer: Signer, videoId: string, trackId: string) {
  const { query, expires } = signQuery(ctx, 'media', signer, `${videoId}/subtitles/${trackId}`);
  const url = `${publicUrl(ctx)}/drive/v1/subtitles/${encodeURIComponent(videoId)}/${encodeURIComponent(trackId)}?${query}`;
  return { url, expire: toRfc3339(expires * 1000) };
}

/** The tracks of the caller's video: inside it, its sidecars, then the picked file; starts converting text tracks. */
export async function listSubtitleTracks(
  ctx: AppContext,
  log: FastifyBaseLogger,
  signer: Signer,
  videoId: string,
  pickedId?: string,
): Promise<SubtitleTrackOut[]> {
  const video = await findFile(ctx.db, signer.userId, videoId);
  if (!isLiveVideo(video)) throw notFound('No such video of yours.');
  let picked: FileRow | undefined;
  if (pickedId) {
    picked = await findFile(ctx.db, signer.userId, pickedId);
    if (!picked || picked.kind !== FILE_KIND || picked.trashed) throw notFound('No such subtitle file of yours.');
    if (!isSubtitleFile(picked)) throw new HttpError(400, 'invalid_argument', 'Choose a subtitle file: .srt, .ass, .ssa or .vtt.');
  }
  const streams = await subtitleStreams(ctx, video.hash);
  // The person is likely to pick one soon: convert now, so the first choice does not wait for a read of the whole film.
  if (streams.some((s) => s.kind === 'text')) {
    convertTextTracks(ctx, video.hash, streams).catch((err: unknown) => log.warn({ err }, 'subtitle conversion failed'));
  }
  const tracks: SubtitleTrackOut[] = streams.map((s) => ({
    id: `s${s.index}`,
    source: 'embedded',
    kind: s.kind,
    codec: s.codec,
    language: s.language,
    title: s.title,
    name: '',
    file_id: '',
    default: s.default,
    forced: s.forced,
    link: s.kind === 'text' ? trackLink(ctx, signer, video.id, `s${s.index}`) : { url: '', expire: '' },
  }));
  const fileTrack = (f: FileRow, source: 'sidecar' | 'file'): SubtitleTrackOut => {
    const parts = sidecarNameParts(video.name, f.name) ?? { language: '', title: '' };
    return {
      id: `f${f.id}`,
      source,
      kind: 'text',
      codec: subtitleFormatOf(f.name) === 'ass' ? f.name.slice(-3).toLowerCase() : subtitleFormatOf(f.name)!,
      language: parts.language,
      title: parts.title,
      name: f.name,
      file_id: f.id,
      default: false,
      forced: false,
      link: trackLink(ctx, signer, video.id, `f${f.id}`),
    };
  };
  const sidecars = await findSidecars(ctx, video);
  tracks.push(...sidecars.map((f) => fileTrack(f, 'sidecar')));
  if (picked && !sidecars.some((f) => f.id === picked.id)) tracks.push(fileTrack(picked, 'file'));
  return tracks;
}

export interface VttAnswer {
  vtt: Buffer;
  etag: string;
}

/** The WebVTT behind a signed track link; null when the link does not hold or the track is gone. */
export async function subtitleVtt(ctx: AppContext, videoId: string, trackId: string, q: LinkQuery, acceptLanguage?: string): Promise<VttAnswer | null> {
  if (!(await verifyQuery(ctx, 'media', `${videoId}/subtitles/${trackId}`, q))) return null;
  const userId = q.u!;
  const video = await findFile(ctx.db, userId, videoId);
  if (!isLiveVideo(video)) return null;
  const embedded = EMBEDDED.exec(trackId);
  if (embedded) {
    const index = Number(embedded[1]);
    const streams = await subtitleStreams(ctx, video.hash);
    if (!streams.some((s) => s.index === index && s.kind === 'text')) return null;
    const blob = await embeddedVtt(ctx, video.hash, streams, index);
    if (!blob) return null;
    const chunks: Buffer[] = [];
    for await (const c of ctx.blobs.read(blob)) chunks.push(c as Buffer);
    return { vtt: Buffer.concat(chunks), etag: `"${blob}"` };
  }
  const picked = PICKED.exec(trackId);
  if (!picked) return null;
  const file = await findFile(ctx.db, userId, picked[1]!);
  if (!file || !isSubtitleFile(file)) return null;
  if (file.size > MAX_SUBTITLE_BYTES) throw new HttpError(400, 'file_size_too_large', 'The subtitle file is larger than 8 MiB.');
  const chunks: Buffer[] = [];
  for await (const c of ctx.blobs.read(file.hash)) chunks.push(c as Buffer);
  // Not UTF-8: the legacy encoding of the language the name gives, else of the languages the browser asks for.
  const language = sidecarNameParts(video.name, file.name)?.language ?? '';
  const legacy = legacyEncoding([language, ...acceptedLanguages(acceptLanguage)].filter(Boolean));
  const text = decodeSubtitleBytes(Buffer.concat(chunks), legacy);
  const vtt = Buffer.from(toWebVtt(parseSubtitles(text, subtitleFormatOf(file.name)!)), 'utf8');
  // The encoding guessed is part of the tag: the same bytes may read differently for another language.
  return { vtt, etag: `"${file.hash}-${legacy}"` };
}
