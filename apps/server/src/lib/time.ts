/** Times are stored as epoch milliseconds and sent as RFC 3339 strings. */

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function toRfc3339(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '' : new Date(ms).toISOString();
}

/** Parses an RFC 3339 string or epoch milliseconds; null when it is neither. */
export function parseTime(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string' || v === '') return null;
  if (/^\d+$/.test(v)) return Number(v);
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}
