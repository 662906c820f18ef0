/** Pure rules of playback: what a browser plays as is, which renditions a video gets, what type bytes are sent as. */
import { extensionOf } from '@haul/shared';
import mime from 'mime-types';
import type { AudioProbe, VideoProbe } from './media-probe.js';

const BROWSER_VIDEO = new Set(['h264', 'vp8', 'vp9', 'av1']);
const BROWSER_AUDIO = new Set(['aac', 'mp3', 'opus', 'vorbis']);

/** True when a browser plays the original directly: mp4/mov/webm with h264/vp8/vp9/av1 and aac/mp3/opus/vorbis or no audio. */
export function isBrowserPlayableVideo(probe: VideoProbe, fileName: string): boolean {
  const ext = extensionOf(fileName);
  const mp4Family = /(^|,)(mov|mp4)(,|$)/.test(probe.container);
  // ffprobe names Matroska and WebM alike; only a .webm is offered to the browser as WebM.
  const webm = /(^|,)webm(,|$)/.test(probe.container) && ext === 'webm';
  if (!mp4Family && !webm) return false;
  if (!BROWSER_VIDEO.has(probe.videoCodec)) return false;
  // 10-bit and 4:2:2/4:4:4 H.264 decode in no mainstream browser.
  if (probe.videoCodec === 'h264' && probe.pixelFormat && !/^yuvj?420p$/.test(probe.pixelFormat)) return false;
  return probe.audioCodec === '' || BROWSER_AUDIO.has(probe.audioCodec);
}

/** True when a browser's audio element plays the original: MP3, AAC, FLAC, Opus, Vorbis and PCM WAV. */
export function isBrowserPlayableAudio(probe: AudioProbe): boolean {
  return /mpeg 1 layer 3|mpeg 2 layer 3|^mp3|aac|flac|opus|vorbis|^pcm/i.test(probe.codec);
}

export interface RenditionPlan {
  name: string;
  position: number;
  width: number;
  height: number;
  /** Bits per second announced for the rendition (video ceiling plus audio). */
  bandwidth: number;
}

const LADDER = [
  { short: 480, videoBits: 1_400_000 },
  { short: 720, videoBits: 2_800_000 },
  { short: 1080, videoBits: 5_000_000 },
];
export const AUDIO_BITS = 128_000;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * Renditions for a video: 480p, 720p and 1080p up to the source's size (measured on its shorter side, so a
 * portrait phone video gets the same ladder), or one at the source's own size when it is smaller than 480p.
 */
export function renditionPlan(probe: Pick<VideoProbe, 'width' | 'height'>): RenditionPlan[] {
  const short = Math.min(probe.width, probe.height);
  const steps = LADDER.filter((s) => s.short <= short);
  const chosen = steps.length ? steps : [{ short: even(short), videoBits: 800_000 }];
  return chosen.map((s, position) => {
    const scale = s.short / short;
    const landscape = probe.width >= probe.height;
    const width = landscape ? even(probe.width * scale) : s.short;
    const height = landscape ? s.short : even(probe.height * scale);
    return { name: `${s.short}p`, position, width, height, bandwidth: s.videoBits + AUDIO_BITS };
  });
}

/** "1080p" for a 1920×1080 video (the shorter side), as players label qualities. */
export function resolutionName(probe: Pick<VideoProbe, 'width' | 'height'>): string {
  return `${Math.min(probe.width, probe.height)}p`;
}

/** The type original bytes are served inline as: a video or audio type, never anything a browser would run. */
export function originContentType(fileName: string, kind: 'video' | 'audio'): string {
  const t = mime.lookup(fileName);
  if (t && t.startsWith(`${kind}/`)) return t;
  return 'application/octet-stream';
}

export const THUMBNAIL_PIXELS = { SIZE_SMALL: 160, SIZE_MEDIUM: 480, SIZE_LARGE: 1280 } as const;
export type ThumbnailSize = keyof typeof THUMBNAIL_PIXELS;

/** A thumbnail size the API accepts; SIZE_DEFAULT and anything unknown mean medium. */
export function thumbnailSize(v: unknown): ThumbnailSize {
  return v === 'SIZE_SMALL' || v === 'SIZE_LARGE' ? v : 'SIZE_MEDIUM';
}

/** True when a rendition plays for premium accounts only: its shorter side is above the free plan's (0 gates none). */
export function needsPremium(size: { width: number; height: number }, freeMaxResolution: number): boolean {
  return freeMaxResolution > 0 && Math.min(size.width, size.height) > freeMaxResolution;
}

/**
 * Seconds a limited viewer may play (seed 001 §5): the larger of `seconds` and `fraction` of the duration, never past
 * the end. An unknown duration allows `seconds`.
 */
export function previewSeconds(duration: number, seconds: number, fraction: number): number {
  if (!(duration > 0)) return seconds;
  return Math.min(duration, Math.max(seconds, fraction * duration));
}
