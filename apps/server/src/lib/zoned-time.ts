/**
 * Calendar days and months in the operator's time zone (HAUL_TIME_ZONE): quota periods start at local midnight, so
 * a month's allowance resets when the people using the server turn the page of their calendar, not at UTC midnight.
 */

/** Whether `zone` is an IANA time zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date and time at `ms` in `zone`. */
function wallClock(ms: number, zone: string): { y: number; m: number; d: number; h: number; min: number; s: number } {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  return { y: p.year!, m: p.month!, d: p.day!, h: p.hour!, min: p.minute!, s: p.second! };
}

/** How far `zone` is ahead of UTC at `ms`, in ms. */
function offsetAt(ms: number, zone: string): number {
  const w = wallClock(ms, zone);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s) - Math.floor(ms / 1000) * 1000;
}

/** The instant local midnight starts the given date in `zone` (month and day may overflow, as in Date.UTC). */
function localMidnight(y: number, m: number, d: number, zone: string): number {
  const naive = Date.UTC(y, m - 1, d);
  // Twice: the first guess may sit on the other side of a daylight-saving change.
  let t = naive - offsetAt(naive, zone);
  t = naive - offsetAt(t, zone);
  return t;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A quota period: its key (stored) and when it ends (when the quota resets). */
export interface Period {
  key: string;
  startsAt: number;
  endsAt: number;
}

/** The calendar month around `ms` in `zone`; its key reads `2026-11`. */
export function monthOf(ms: number, zone: string): Period {
  const w = wallClock(ms, zone);
  return { key: `${w.y}-${pad(w.m)}`, startsAt: localMidnight(w.y, w.m, 1, zone), endsAt: localMidnight(w.y, w.m + 1, 1, zone) };
}

/** The calendar day around `ms` in `zone`; its key reads `2026-11-29`. */
export function dayOf(ms: number, zone: string): Period {
  const w = wallClock(ms, zone);
  return { key: `${w.y}-${pad(w.m)}-${pad(w.d)}`, startsAt: localMidnight(w.y, w.m, w.d, zone), endsAt: localMidnight(w.y, w.m, w.d + 1, zone) };
}

/** The zone of this process, else UTC. */
export function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
