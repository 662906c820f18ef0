/**
 * Slows pass-code guessing. Tries are counted per (share, client address) and per client address across all shares,
 * in the database (attempt-limiter), so the limits hold across processes; past a few free tries each key waits longer
 * and longer. Nothing is counted per share alone, so a stranger guessing at a link never locks it for the people who
 * have the code; and an address's wrong tries at other shares do not hold up its first tries at this one
 * (attempt-limiter's AcrossWaiver), so a guesser elsewhere on the same network locks nobody out of their own link.
 */
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { clientKey, refundAttempts, takeAttempt, type AttemptPolicy } from '../limits/attempt-limiter.js';

const DAY = 86_400_000;
const PER_SHARE: AttemptPolicy = { free: 5, baseDelayMs: 1000, maxDelayMs: 3600_000, forgetMs: DAY };
/** One address guessing across many links. */
const PER_ADDRESS: AttemptPolicy = { free: 30, baseDelayMs: 1000, maxDelayMs: 3600_000, forgetMs: DAY };
/** Tries at a share the address-wide count does not hold up: a person mistyping a code once or twice. */
const FIRST_TRIES = 3;

export class PassCodeGuard {
  constructor(private readonly ctx: { db: Db; clock: Clock }) {}

  private keys(shareId: string, address: string): [[string, AttemptPolicy], [string, AttemptPolicy]] {
    const from = clientKey(address);
    return [
      [`code|${shareId}|${from}`, PER_SHARE],
      [`code|${from}`, PER_ADDRESS],
    ];
  }

  /** Takes a try: 0 when this client may check a code at this share now (the try is counted), else ms to wait. */
  take(shareId: string, address: string): Promise<number> {
    const keys = this.keys(shareId, address);
    return takeAttempt(this.ctx.db, this.ctx.clock.now(), keys, { target: keys[0][0], across: keys[1][0], firstTries: FIRST_TRIES });
  }

  /**
   * A correct code is no guess: its try is given back on both keys, and only it. Nothing starts over, so a right code
   * between guesses (the guesser's own at another share, or a colleague's behind the same address) wins no guesses.
   */
  async succeeded(shareId: string, address: string): Promise<void> {
    await refundAttempts(this.ctx.db, this.keys(shareId, address));
  }
}
