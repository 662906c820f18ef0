/** The players' rules from seed 001, kept apart from React so they can be tested: media choice, seeking, resuming. */
import type { DriveMedia } from '@haul/shared';

export const RATES = [0.5, 1, 1.25, 1.5, 2, 3] as const;
/** Left/Right seek this far, J/L further (as most players do). */
export const SEEK_STEP_S = 5;
export const JUMP_STEP_S = 10;
export const VOLUME_STEP = 10;
export const DEFAULT_VIDEO_VOLUME = 50;
/** Saved audio progress is kept only for long files (seed 001 §7). */
export const AUDIO_RESUME_MIN_S = 600;
/** Play progress is reported at most this often (trailing), and at the end. */
export const REPORT_EVERY_MS = 5000;

/** Audio the web player cannot decode, whatever the browser says (seed 000 §5). */
const UNPLAYABLE_AUDIO = new Set(['eac3']);

/**
 * Which entry plays (seed 001 §2, adapted): the original when the server marked it playable in a browser and its
 * audio can be decoded; otherwise a rendition: the middle one of more than two, the last of two, else the only one.
 * Entries not yet visible (still transcoding) or needing a plan the viewer lacks are never chosen.
 */
export function chooseMedia(medias: DriveMedia[]): DriveMedia | null {
  const offered = medias.filter((m) => m.is_visible && !m.need_more_quota);
  const origin = offered.find((m) => m.is_origin);
  if (origin && !UNPLAYABLE_AUDIO.has(origin.video?.audio_codec ?? '')) return origin;
  const renditions = offered.filter((m) => !m.is_origin);
  if (renditions.length > 2) return renditions[Math.floor(renditions.length / 2)]!;
  if (renditions.length === 2) return renditions[1]!;
  return renditions[0] ?? null;
}

/**
 * Where a failing (or blank) original falls back, once (seed 001 §4): among the renditions that can play, the one at
 * half the list's length when there are more than 2, else the last; null when there is none.
 */
export function fallbackMedia(medias: DriveMedia[]): DriveMedia | null {
  const renditions = medias.filter((m) => m.is_visible && !m.is_origin && !m.need_more_quota);
  if (renditions.length > 2) return renditions[Math.floor(renditions.length / 2)]!;
  return renditions.at(-1) ?? null;
}

/** Renditions still being made: the player waits for them, showing their progress. */
export function pendingRenditions(medias: DriveMedia[]): DriveMedia[] {
  return medias.filter((m) => !m.is_origin && !m.is_visible && (m.phase === 'PHASE_TYPE_PENDING' || m.phase === 'PHASE_TYPE_RUNNING'));
}

/** Where a saved position resumes: nowhere at 99 % or more, or past the end. */
export function resumeAt(saved: { value: number; percentage: number } | undefined, duration: number): number {
  if (!saved || !(duration > 0) || saved.percentage >= 99 || saved.value <= 0 || saved.value >= duration) return 0;
  return saved.value;
}

const SEEK_KEYS: Record<string, number> = {
  ArrowLeft: -SEEK_STEP_S,
  ArrowRight: SEEK_STEP_S,
  j: -JUMP_STEP_S,
  J: -JUMP_STEP_S,
  l: JUMP_STEP_S,
  L: JUMP_STEP_S,
};

/**
 * Where a seeking key takes a player: Left/Right ±5 s, J/L ±10 s, clamped to the file; null for other keys. Keys
 * never leave the file: switching files is PageUp/PageDown, Ctrl/⌥ + arrows, the side buttons and swipes.
 */
export function seekByKey(key: string, currentTime: number, duration: number): number | null {
  const step = SEEK_KEYS[key];
  if (!step) return null;
  return Math.max(0, Math.min(duration || Infinity, currentTime + step));
}

/** Slider values: 0–100 in steps of 0.5. */
export const clampSlider = (v: number) => Math.min(100, Math.max(0, Math.round(v * 2) / 2));

/** hh:mm:ss with leading zero hours trimmed (seed 000 §9). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/** KB/s below 1024, else MB/s with two decimals (seed 001 §2). */
export function formatSpeed(bytesPerSecond: number): string {
  const kb = bytesPerSecond / 1024;
  return kb < 1024 ? `${Math.round(kb)} KB/s` : `${(kb / 1024).toFixed(2)} MB/s`;
}

/** Image zoom bounds and step (seed 001 §3). */
export const ZOOM = { step: 1.1, min: 0.15, max: 6.7, double: 3 } as const;

export const clampZoom = (scale: number) => Math.min(ZOOM.max, Math.max(ZOOM.min, scale));

export type PlayMode = 'list' | 'single' | 'pause';
export const PLAY_MODES: PlayMode[] = ['list', 'single', 'pause'];

/** What follows the end of a song: the next one (wrapping), the same again, or nothing. */
export function afterSongEnds(mode: PlayMode): 'next' | 'repeat' | 'stop' {
  return mode === 'list' ? 'next' : mode === 'single' ? 'repeat' : 'stop';
}

/** Blank-frame detection (seed 001 §4, §9): a 300×300 canvas, a 50×50 sample at (100, 100), every 500 ms, 6 in a row. */
export const BLANK = { canvas: 300, x: 100, y: 100, size: 50, everyMs: 500, checks: 6 } as const;
/** A channel at or under this counts as black (compression leaves a little noise in black). */
const BLACK_LEVEL = 20;

/** Whether RGBA pixels are all black. */
export function isBlackSample(rgba: ArrayLike<number>): boolean {
  for (let i = 0; i < rgba.length; i += 4)
    if (rgba[i]! > BLACK_LEVEL || rgba[i + 1]! > BLACK_LEVEL || rgba[i + 2]! > BLACK_LEVEL) return false;
  return rgba.length > 0;
}

/** Black frames in a row so far: a frame counts only when time moved since the last check (a paused or stalled video proves nothing). */
export function countBlank(sofar: number, frame: { moved: boolean; black: boolean }): number {
  if (!frame.moved) return sofar;
  return frame.black ? sofar + 1 : 0;
}

/** Audio bar controls that give way when the bar narrows, in the order they go (seed 001 §2). */
export type Collapsible = 'volume' | 'quality' | 'settings';
const COLLAPSE_ORDER: Collapsible[] = ['volume', 'quality', 'settings'];
/** Room each part of the audio bar's row takes, in CSS pixels (buttons 36, gaps 8). */
export const AUDIO_BAR_ROOM = { fixed: 390, volume: 98, quality: 64, settings: 44 } as const;

/** Which controls hide in a bar `available` pixels wide: the volume slider first, then the quality, then settings. */
export function collapsedControls(available: number, room: Record<Collapsible | 'fixed', number> = AUDIO_BAR_ROOM): Collapsible[] {
  let total = room.fixed + room.volume + room.quality + room.settings;
  const hidden: Collapsible[] = [];
  for (const c of COLLAPSE_ORDER) {
    if (total <= available) break;
    hidden.push(c);
    total -= room[c];
  }
  return hidden;
}
