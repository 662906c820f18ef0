/**
 * What a viewer may play (seed 001 §4–§6): the preview of a limited share visitor, and the quality chosen before
 * paying for it, kept across the trip to the payment pages.
 */
import type { DriveMedia } from '@haul/shared';

/** The seeds' defaults, used when the file's params name only one of the two. */
export const ANONYMOUS_PLAY_SECONDS = 120;
export const ANONYMOUS_PLAY_RANGE = 0.4;

/**
 * Seconds a limited viewer may play, or null when the file's params set no limit: the larger of (allowed seconds /
 * duration) and the range fraction, times the duration. The server's playlist ends at the same point.
 */
export function previewLimit(params: Record<string, string> | undefined, duration: number): number | null {
  if (!params || (params.anonymous_play_seconds === undefined && params.anonymous_play_range === undefined)) return null;
  const seconds = Number(params.anonymous_play_seconds ?? ANONYMOUS_PLAY_SECONDS);
  const range = Number(params.anonymous_play_range ?? ANONYMOUS_PLAY_RANGE);
  if (!(duration > 0)) return seconds;
  return Math.min(duration, Math.max(seconds / duration, range) * duration);
}

/** An entry the viewer's plan does not cover: offered with a premium mark, played after paying. */
export const needsUpgrade = (m: DriveMedia) => m.need_more_quota;

const WANTED_KEY = 'haul.wantedQuality';

/** Remembers the quality chosen before leaving for the payment pages. */
export function rememberWantedQuality(fileId: string, mediaId: string): void {
  sessionStorage.setItem(WANTED_KEY, JSON.stringify({ fileId, mediaId }));
}

/** The quality chosen for this file before paying, if any; read once (the choice is kept only if payment succeeded). */
export function takeWantedQuality(fileId: string): string | null {
  try {
    const wanted = JSON.parse(sessionStorage.getItem(WANTED_KEY) ?? 'null') as { fileId: string; mediaId: string } | null;
    if (!wanted || wanted.fileId !== fileId) return null;
    sessionStorage.removeItem(WANTED_KEY);
    return wanted.mediaId;
  } catch {
    return null;
  }
}
