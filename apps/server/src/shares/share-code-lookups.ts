/**
 * Slows the guessing of share codes and phrases. `GET share/code` needs no token and says whether words or an id
 * name a share, so a client could walk a dictionary of phrases to find links to try pass codes on. Each address
 * gets a few dozen misses a day for free, then waits longer and longer; a lookup that finds its share gives its try
 * back, so a person typing the codes they were given is never slowed. Counted in the database (attempt-limiter), so
 * the limit holds across processes.
 */
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { clientKey, refundAttempt, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';

const POLICY: AttemptPolicy = { free: 30, baseDelayMs: 1000, maxDelayMs: 3600_000, forgetMs: 86_400_000 };

/** Runs one lookup for `address` under the limit: 429 while its misses make it wait; a hit costs nothing. */
export async function limitedCodeLookup<T>(ctx: { db: Db; clock: Clock }, address: string, find: () => Promise<T | undefined>): Promise<T | undefined> {
  const key = `share-code|${clientKey(address)}`;
  const wait = await takeAttempt(ctx.db, ctx.clock.now(), [[key, POLICY]]);
  if (wait) throw tooManyAttempts(wait, 'Too many share codes tried.');
  const found = await find();
  if (found !== undefined) await refundAttempt(ctx.db, key, POLICY);
  return found;
}
