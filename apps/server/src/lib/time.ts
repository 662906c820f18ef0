/** Times are stored as epoch milliseconds and sent as RFC 3339 strings. */

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function toRfc3339(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '' : new Date(ms).toISOString();
}

/** The latest time a Date can hold, in epoch ms. */
const MAX_TIME = 8.64e15;

/** Parses an RFC 3339 string or epoch milliseconds; null when it is neither, or out of a Date's range. */
export function parseTime(v: unknown): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && Math.abs(v) <= MAX_TIME ? v : null;
  if (typeof v !== 'string' || v === '') return null;
  if (/^\d+$/.test(v)) return v.length <= 16 && Number(v) <= MAX_TIME ? Number(v) : null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}
