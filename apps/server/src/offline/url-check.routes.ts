/**
 * POST /drive/v1/url:check, open to signed-out visitors (the checker page is public): each check may reach another
 * server for up to 30 s, so checks are counted in the database, per network when signed out, per account when signed in.
 */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { optionalUserId } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { checkUrl, type TorrentLister } from './url-check.js';

/** Signed out: 10 checks an hour from one network, then one every 6 minutes. */
export const VISITOR_CHECKS: AttemptPolicy = { free: 9, baseDelayMs: 6 * 60_000, maxDelayMs: 6 * 60_000, fixed: true, forgetMs: 3_600_000 };
/** Signed in: 120 an hour, then one every 30 seconds. */
export const ACCOUNT_CHECKS: AttemptPolicy = { free: 119, baseDelayMs: 30_000, maxDelayMs: 30_000, fixed: true, forgetMs: 3_600_000 };

export async function urlCheckRoutes(app: FastifyInstance, ctx: AppContext, lister: TorrentLister): Promise<void> {
  serve(app, C.checkUrl, async (req) => {
    const userId = await optionalUserId(ctx, req);
    const key: [string, AttemptPolicy] = userId
      ? [`url-check|user|${userId}`, ACCOUNT_CHECKS]
      : [`url-check|${clientKey(req.ip)}`, VISITOR_CHECKS];
    const wait = await takeAttempt(ctx.db, ctx.clock.now(), [key]);
    if (wait > 0)
      throw tooManyAttempts(
        wait,
        userId ? 'Too many link checks from this account.' : 'Too many link checks from this network; sign in to check more.',
      );
    return checkUrl(ctx, lister, req.body.url);
  });
}
