/** What a media file holds: ffprobe for video, music-metadata for audio. Both read our own blob file only. */
import { open } from 'node:fs/promises';
import type { Config } from '../config.js';
import { loadMusicMetadata, loadSharp } from './media-libs.js';
import { INPUT_GUARD, MediaToolError, mediaTools, runTool } from './media-tools.js';

export interface VideoProbe {
  kind: 'video';
  /** ffprobe's format name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  container: string;
  videoCodec: string;
  /** '' when there is no audio stream. */
  audioCodec: string;
  pixelFormat: string;
  /** Display size: after the rotation the file asks for. */
  width: number;
  height: number;
  /** Seconds; 0 when unknown. */
  duration: number;
  bitRate: number;
}

export interface AudioProbe {
  kind: 'audio';
  container: string;
  codec: string;
  duration: number;
  bitRate: number;
  title: string;
  artist: string;
  album: string;
  hasCover: boolean;
}

export interface ImageProbe {
  kind: 'image';
  format: string;
  /** Display size: after the EXIF orientation. */
  width: number;
  height: number;
}

export type MediaProbe = VideoProbe | AudioProbe | ImageProbe;

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

const num = (v: unknown): number => {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** Streams and format of a video file (the first real video stream, not a cover picture). */
export async function probeVideo(config: Config, path: string, signal?: AbortSignal): Promise<VideoProbe> {
  const { ffprobe } = mediaTools(config);
  const out = await runTool(
    ffprobe,
    ['-v', 'error', ...INPUT_GUARD, '-show_format', '-show_streams', '-of', 'json', `file:${path}`],
    { timeoutMs: 30_000, signal, maxOutput: 4 * 1024 * 1024 },
  );
  let json: { streams?: FfprobeStream[]; format?: { format_name?: string; duration?: string; bit_rate?: string } };
  try {
    json = JSON.parse(out.toString('utf8'));
  } catch {
    throw new MediaToolError('The media could not be read.');
  }
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  if (!video || !video.width || !video.height) throw new MediaToolError('The file has no video stream.');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const rotation = Math.abs(Number(video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0)) % 180;
  return {
    kind: 'video',
    container: json.format?.format_name ?? '',
    videoCodec: video.codec_name ?? '',
    audioCodec: audio?.codec_name ?? '',
    pixelFormat: video.pix_fmt ?? '',
    width: rotation === 90 ? video.height : video.width,
    height: rotation === 90 ? video.width : video.height,
    duration: num(json.format?.duration),
    bitRate: Math.round(num(json.format?.bit_rate)),
  };
}

/** Codec, duration and tags of an audio file. */
export async function probeAudio(path: string): Promise<AudioProbe> {
  let meta;
  try {
    const { parseFile } = await loadMusicMetadata();
    meta = await parseFile(path, { duration: false, skipCovers: false });
  } catch (err) {
    throw new MediaToolError(`The audio could not be read: ${(err as Error).message}`.slice(0, 300));
  }
  if (!meta.format.codec && !meta.format.duration) throw new MediaToolError('The audio could not be read.');
  return {
    kind: 'audio',
    container: meta.format.container ?? '',
    codec: meta.format.codec ?? '',
    duration: num(meta.format.duration),
    bitRate: Math.round(num(meta.format.bitrate)),
    title: meta.common.title ?? '',
    artist: meta.common.artist ?? '',
    album: meta.common.album ?? '',
    hasCover: (meta.common.picture?.length ?? 0) > 0,
  };
}

/** Format and display size of an image, from its header (EXIF orientations 5–8 swap width and height). */
export async function probeImage(path: string): Promise<ImageProbe> {
  // SVG is not read at all: its renderer could follow references to other files next to it.
  if (await looksLikeSvg(path)) throw new MediaToolError('SVG images are not probed.');
  let meta;
  try {
    const sharp = await loadSharp();
    meta = await sharp(path, { failOn: 'none' }).metadata();
  } catch (err) {
    throw new MediaToolError(`The image could not be read: ${(err as Error).message}`.slice(0, 300));
  }
  if (!meta.width || !meta.height) throw new MediaToolError('The image could not be read.');
  const turned = (meta.orientation ?? 1) >= 5;
  return { kind: 'image', format: meta.format ?? '', width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height };
}

/** True when the first bytes read as XML or SVG markup. */
export async function looksLikeSvg(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(4096), 0, 4096, 0);
    return /<svg|<\?xml|<!doctype\s+svg/i.test(buffer.subarray(0, bytesRead).toString('latin1'));
  } finally {
    await fh.close();
  }
}
