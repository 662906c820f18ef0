/**
 * Sign-ups counted by where the visitor came from (seed 000 §2: marketing source, medium and campaign, "kept in
 * cookies for half a day"). The web app keeps a link's `__source`, `__medium`, `__campaign` and `from` in the cookie
 * `haul_mkt` for 12 hours; a sign-up that succeeds with it adds to the usage counts (stat-counts.ts) under
 * `signup_source:<source>/<medium>/<campaign>` and `signup_from:<from>`, read with `haul-admin stats`. Like every
 * count, nothing about the account is kept with it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StatEvent } from '@haul/shared';
import type { AppContext } from '../context.js';
import { countEvents } from './stat-counts.js';

export const MARKETING_COOKIE = 'haul_mkt';
const SIGN_UP = '/v1/auth/signup';
const MAX_VALUE = 40;

/** A value as it is counted: at most 40 characters of letters, digits, `.`, `_` and `-` (anything else becomes `_`). */
const clean = (v: string | null) =>
  (v ?? '')
    .trim()
    .slice(0, MAX_VALUE)
    .replace(/[^\p{L}\p{N}._-]/gu, '_');

/** The cookie's values, or null when the request carries none. */
export function marketingOf(cookieHeader: string | undefined): { from: string; source: string; medium: string; campaign: string } | null {
  const raw = cookieHeader
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${MARKETING_COOKIE}=`))
    ?.slice(MARKETING_COOKIE.length + 1);
  if (!raw) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(decodeURIComponent(raw));
  } catch {
    return null;
  }
  const m = {
    from: clean(params.get('from')),
    source: clean(params.get('source')),
    medium: clean(params.get('medium')),
    campaign: clean(params.get('campaign')),
  };
  return m.from || m.source || m.medium || m.campaign ? m : null;
}

/** The names a sign-up with these values is counted under. */
export function signupEvents(m: NonNullable<ReturnType<typeof marketingOf>>): string[] {
  const names: string[] = [];
  if (m.source || m.medium || m.campaign) names.push(`signup_source:${m.source}/${m.medium}/${m.campaign}`);
  if (m.from) names.push(`signup_from:${m.from}`);
  return names;
}

const isSignUp = (req: FastifyRequest) => req.method === 'POST' && req.routeOptions.url === SIGN_UP;

/**
 * Counts each successful sign-up under the marketing values its request carried; before the answer leaves, so a
 * count is never lost to a process stopping just after it (one small upsert).
 */
export function countSignupSources(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode !== 200 || !isSignUp(req)) return payload;
    const m = marketingOf(req.headers.cookie);
    if (!m) return payload;
    // Built here from cleaned values, not one of the apps' closed list of reported names.
    const entries = signupEvents(m).map((event) => ({ event: event as StatEvent }));
    await countEvents(ctx.db, entries, ctx.clock.now(), ctx.config.timeZone).catch((err: unknown) =>
      req.log.warn({ err }, 'sign-up source not counted'),
    );
    return payload;
  });
}
