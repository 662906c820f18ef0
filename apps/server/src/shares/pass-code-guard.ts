/**
 * Slows pass-code guessing. Tries are counted per (share, client address) and per client address across all shares,
 * in the database (attempt-limiter), so the limits hold across processes; past a few free tries each key waits longer
 * and longer. Nothing is counted per share alone, so a stranger guessing at a link never locks it for the people who
 * have the code.
 */
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/time.js';
import { clearAttempts, clientKey, refundAttempt, takeAttempt, type AttemptPolicy } from '../limits/attempt-limiter.js';

const DAY = 86_400_000;
const PER_SHARE: AttemptPolicy = { free: 5, baseDelayMs: 1000, maxDelayMs: 3600_000, forgetMs: DAY };
/** One address guessing across many links. */
const PER_ADDRESS: AttemptPolicy = { free: 30, baseDelayMs: 1000, maxDelayMs: 3600_000, forgetMs: DAY };

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
    return takeAttempt(this.ctx.db, this.ctx.clock.now(), this.keys(shareId, address));
  }

  /** A correct code: the client's count for this share starts over, and the try is not held against its address. */
  async succeeded(shareId: string, address: string): Promise<void> {
    const [share, across] = this.keys(shareId, address);
    await clearAttempts(this.ctx.db, [share[0]]);
    await refundAttempt(this.ctx.db, across[0], across[1]);
  }
}
