/**
 * Marketing parameters (seed 000 §2: `from`, `__source`, `__medium`, `__campaign`, "kept in cookies for half a day"):
 * where a visitor came from, kept in a cookie for 12 hours so a sign-up within that time is counted under it by the
 * server (apps/server/src/stats/signup-sources.ts). Nothing about the person is kept: only the values of the link.
 */

/** The cookie's name; the server reads the same one. */
export const MARKETING_COOKIE = 'haul_mkt';
export const MARKETING_MAX_AGE_S = 12 * 60 * 60;

/** The values the address carries, under short names, or null when it carries none. */
export function marketingOf(params: URLSearchParams): URLSearchParams | null {
  const kept = new URLSearchParams();
  for (const [param, name] of [
    ['from', 'from'],
    ['__source', 'source'],
    ['__medium', 'medium'],
    ['__campaign', 'campaign'],
  ] as const) {
    const v = params.get(param)?.trim();
    if (v) kept.set(name, v.slice(0, 100));
  }
  return kept.size ? kept : null;
}

/** The cookie line that keeps them: the whole site (the sign-up call is under /v1), half a day, first-party only. */
export function marketingCookie(values: URLSearchParams, secure: boolean): string {
  return `${MARKETING_COOKIE}=${encodeURIComponent(values.toString())}; Max-Age=${MARKETING_MAX_AGE_S}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Keeps the address's marketing values, replacing older ones (the latest link the visitor followed wins). */
export function keepMarketingParams(search: string): void {
  const values = marketingOf(new URLSearchParams(search));
  if (values) document.cookie = marketingCookie(values, window.location.protocol === 'https:');
}
