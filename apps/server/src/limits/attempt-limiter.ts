/**
 * Attempt limits for what can be guessed (passwords, pass codes) or abused (sign-ups), kept in the database so they
 * hold across every Haul process of a site. An attempt is counted before it is made, inside a transaction that holds
 * the key's row, so a hundred parallel guesses are taken one after another: past a few free ones, each must wait.
 */
import { isIPv6 } from 'node:net';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';

export interface AttemptPolicy {
  /** Attempts taken without a wait; the one after them is taken too, and starts the waits. */
  free: number;
  /** First wait; each further attempt doubles it (unless `fixed`), up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The same wait after every attempt past the free ones: a slow lane that never closes. */
  fixed?: boolean;
  /** A key untouched this long starts over. */
  forgetMs: number;
}

/** Waiting time after the `count`-th attempt of a key under `policy` (0 while within the free ones). */
export function delayAfter(policy: AttemptPolicy, count: number): number {
  const over = count - policy.free;
  if (over <= 0) return 0;
  if (policy.fixed) return policy.baseDelayMs;
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(over - 1, 30));
}

/**
 * A key across targets (one client's tries at every account or share) whose wait does not hold up the client's first
 * `firstTries` tries at one target (`target`, the key of that client and that target). They are still counted on it,
 * so a client hopping between targets keeps being slowed there; but someone sharing a network with a guesser is not
 * kept from their own account or share by the guesser's tries elsewhere. Each target has its own key and its own
 * limit, so no target gets more than its free tries this way.
 */
export interface AcrossWaiver {
  across: string;
  target: string;
  firstTries: number;
}

/**
 * Takes one attempt for every key at once, or none: returns 0 when the attempt may go ahead (it is counted), else the
 * milliseconds until the first blocked key opens (nothing counted).
 */
export async function takeAttempt(db: Db, now: number, keys: [string, AttemptPolicy][], waiver?: AcrossWaiver): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const next: { key: string; count: number; nextAt: number; wait: number }[] = [];
    for (const [key, policy] of keys) {
      // The no-op upsert takes the row's lock (PostgreSQL; SQLite has one writer) before it is read.
      await trx
        .insertInto('attempt_limits')
        .values({ key, count: 0, next_at: 0, last_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ count: eb.ref('attempt_limits.count') })))
        .execute();
      const row = await trx.selectFrom('attempt_limits').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
      const fresh = now - row.last_at > policy.forgetMs;
      const count = (fresh ? 0 : row.count) + 1;
      next.push({ key, count, nextAt: now + delayAfter(policy, count), wait: !fresh && row.next_at > now ? row.next_at - now : 0 });
    }
    const atTarget = waiver && next.find((n) => n.key === waiver.target)?.count;
    const waived = waiver && atTarget !== undefined && atTarget <= waiver.firstTries ? waiver.across : null;
    const wait = Math.max(0, ...next.filter((n) => n.key !== waived).map((n) => n.wait));
    if (wait > 0) return wait;
    for (const n of next) {
      await trx.updateTable('attempt_limits').set({ count: n.count, next_at: n.nextAt, last_at: now }).where('key', '=', n.key).execute();
    }
    return 0;
  });
}

/** The 429 of a limit, saying how long to wait (also as `retry_after_seconds` in the details). */
export function tooManyAttempts(waitMs: number, what = 'Too many attempts.'): HttpError {
  const seconds = Math.ceil(waitMs / 1000);
  return new HttpError(429, 'too_many_requests', `${what} Please try again in ${seconds} seconds.`, [{ retry_after_seconds: seconds }]);
}

/** Forgets keys: a correct password or code starts its client's count over. */
export async function clearAttempts(db: Db, keys: string[]): Promise<void> {
  if (keys.length) await db.deleteFrom('attempt_limits').where('key', 'in', keys).execute();
}

/** Drops counters nobody touched for `olderThanMs`; run by the hourly purge. */
export async function forgetOldAttempts(db: Db, now: number, olderThanMs = 2 * 86_400_000): Promise<number> {
  const r = await db.deleteFrom('attempt_limits').where('last_at', '<', now - olderThanMs).where('next_at', '<', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** IPv6 clients are counted per /64: one subscriber usually holds a whole /64 and could rotate inside it. */
export function clientKey(address: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1]!;
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Gives back one attempt that turned out right (a correct code is no guess), reopening the key if that frees it. */
export async function refundAttempt(db: Db, key: string, policy: AttemptPolicy): Promise<void> {
  await refundAttempts(db, [[key, policy]]);
}

/** refundAttempt for each key, in one transaction. */
export async function refundAttempts(db: Db, keys: [string, AttemptPolicy][]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [key, policy] of keys) {
      const row = await trx.selectFrom('attempt_limits').selectAll().where('key', '=', key).executeTakeFirst();
      if (!row || row.count === 0) continue;
      const count = row.count - 1;
      await trx
        .updateTable('attempt_limits')
        .set({ count, next_at: delayAfter(policy, count) === 0 ? 0 : row.next_at })
        .where('key', '=', key)
        .execute();
    }
  });
}
