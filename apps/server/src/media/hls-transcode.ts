/**
 * One HLS rendition per ffmpeg run (H.264 + AAC in fMP4 segments of about 4 s), written into a scratch folder as an
 * EVENT playlist that grows and ends with ENDLIST. The npm-shipped ffmpeg cannot write master playlists, and one
 * rendition per run keeps a failure to one quality.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { parsePlaylist, type ParsedPlaylist } from './hls-playlist.js';
import { INPUT_GUARD, MediaToolError, mediaTools, runTool } from './media-tools.js';
import { AUDIO_BITS } from './playback.policy.js';

export const SEGMENT_SECONDS = 4;
/** The first segment is short, so a first play has something to show sooner. */
export const FIRST_SEGMENT_SECONDS = 1;
export const PLAYLIST_NAME = 'index.m3u8';

export interface TranscodeInput {
  /** Absolute path of the source blob. */
  source: string;
  /** Absolute path of the empty scratch folder the rendition is written into (and nowhere else). */
  scratch: string;
  width: number;
  height: number;
  /** Announced bandwidth; the video gets this minus the audio as its ceiling. */
  bandwidth: number;
  hasAudio: boolean;
  /** Source seconds, for progress and the time limit. */
  duration: number;
  signal: AbortSignal;
  /** Fraction done, 0..1, as ffmpeg reports it. */
  onProgress: (fraction: number) => void;
}

/** Longest source a rendition covers; a file claiming more (a crafted timestamp) is cut there. */
export const MAX_SOURCE_SECONDS = 12 * 3600;

/** Wall-clock limit of one rendition: generous for slow machines, still ending a run that hangs, and never unbounded. */
export function timeLimitMs(duration: number): number {
  return (120 + Math.ceil(Math.min(Math.max(duration, 0), MAX_SOURCE_SECONDS)) * 8) * 1000;
}

/** Transcodes one rendition; resolves with its finished playlist, rejects with a MediaToolError. */
export async function transcodeRendition(config: Config, input: TranscodeInput): Promise<ParsedPlaylist> {
  const { ffmpeg } = mediaTools(config);
  const videoBits = Math.max(300_000, input.bandwidth - AUDIO_BITS);
  const args = [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1',
    ...INPUT_GUARD,
    '-i', `file:${input.source}`,
    // Frames keep their own timestamps (no duplicates to fill a gap a crafted file claims) and output stops at the cap.
    '-vsync', 'vfr', '-t', String(MAX_SOURCE_SECONDS),
    '-map', '0:v:0', ...(input.hasAudio ? ['-map', '0:a:0'] : []),
    '-sn', '-dn', '-map_metadata', '-1', '-map_chapters', '-1',
    '-vf', `scale=${input.width}:${input.height},setsar=1`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    '-crf', '23', '-maxrate', String(videoBits), '-bufsize', String(videoBits * 2),
    // Key frames at 0 and 1 s, then every segment length, and only there: a first segment of one second (a first
    // play starts sooner), then segments of the same length.
    '-force_key_frames', `expr:gte(t,if(eq(n_forced,0),0,${FIRST_SEGMENT_SECONDS}+(n_forced-1)*${SEGMENT_SECONDS}))`, '-sc_threshold', '0',
    ...(input.hasAudio ? ['-c:a', 'aac', '-b:a', String(AUDIO_BITS), '-ac', '2'] : []),
    '-max_muxing_queue_size', '1024',
    '-f', 'hls',
    '-hls_init_time', String(FIRST_SEGMENT_SECONDS),
    '-hls_time', String(SEGMENT_SECONDS),
    '-hls_playlist_type', 'event',
    '-hls_segment_type', 'fmp4',
    '-hls_fmp4_init_filename', 'init.mp4',
    '-hls_segment_filename', join(input.scratch, '%05d.m4s'),
    join(input.scratch, PLAYLIST_NAME),
  ];
  await runTool(ffmpeg, args, {
    cwd: input.scratch,
    timeoutMs: timeLimitMs(input.duration),
    signal: input.signal,
    onLine: (line) => {
      // out_time_us (and out_time_ms, which older builds also count in microseconds).
      const m = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
      if (m && input.duration > 0) input.onProgress(Math.min(1, Number(m[1]) / 1e6 / input.duration));
    },
  });
  const playlist = parsePlaylist(await readFile(join(input.scratch, PLAYLIST_NAME), 'utf8').catch(() => ''));
  if (!playlist.ended || playlist.segments.length === 0 || !playlist.map) {
    throw new MediaToolError('The video produced no playable stream.');
  }
  return playlist;
}
