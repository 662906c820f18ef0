/** Dates and times in the reader's locale. */
const formats = new Map<string, Intl.DateTimeFormat>();

export function formatTime(iso: string, locale: string): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  let f = formats.get(locale);
  if (!f) formats.set(locale, (f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })));
  return f.format(d);
}

const dates = new Map<string, Intl.DateTimeFormat>();

/** The day alone, for places too narrow for the time (a grid tile). */
export function formatDate(iso: string, locale: string): string {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return '-';
  let f = dates.get(locale);
  if (!f) dates.set(locale, (f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })));
  return f.format(d);
}

/** Time left until `iso`: whole days, else hours (at least 1); null when it has passed or is unknown. */
export function timeLeft(iso: string, now = Date.now()): { days: number } | { hours: number } | null {
  if (!iso) return null;
  const ms = new Date(iso).getTime() - now;
  if (!Number.isFinite(ms) || ms <= 0) return null;
  const days = Math.floor(ms / 86_400_000);
  return days >= 1 ? { days } : { hours: Math.max(1, Math.ceil(ms / 3_600_000)) };
}
