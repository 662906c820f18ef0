/**
 * Slows pass-code guessing. Wrong codes are counted per (share, client address) and per client address across all
 * shares; past a few free tries each key waits longer and longer before it may try again. Nothing is counted per
 * share alone, so a stranger guessing at a link never locks it for the people who have the code.
 * (In memory: per process, like the sign-in limit.)
 */
import { isIPv6 } from 'node:net';
import type { Clock } from '../lib/time.js';

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

interface Strikes {
  count: number;
  /** No attempt is looked at before this time. */
  until: number;
  last: number;
}

export interface GuardPolicy {
  /** Wrong codes allowed before the first delay. */
  free: number;
  /** First delay; each further wrong code doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

const PER_SHARE: GuardPolicy = { free: 5, baseDelayMs: 1000, maxDelayMs: 3600_000 };
/** One address guessing across many links. */
const PER_ADDRESS: GuardPolicy = { free: 30, baseDelayMs: 1000, maxDelayMs: 3600_000 };
/** Counters untouched this long are forgotten. */
const FORGET_MS = 24 * 3600_000;
const MAX_KEYS = 100_000;

export class PassCodeGuard {
  private readonly strikes = new Map<string, Strikes>();

  constructor(private readonly clock: Clock) {}

  private keys(shareId: string, raw: string): [string, GuardPolicy][] {
    const address = clientKey(raw);
    return [
      [`s|${shareId}|${address}`, PER_SHARE],
      [`a|${address}`, PER_ADDRESS],
    ];
  }

  /** Milliseconds this client must still wait before its next try at this share (0: it may try now). */
  waitMs(shareId: string, address: string): number {
    const now = this.clock.now();
    let wait = 0;
    for (const [key] of this.keys(shareId, address)) {
      const s = this.strikes.get(key);
      if (s) wait = Math.max(wait, s.until - now);
    }
    return Math.max(0, wait);
  }

  /** Counts a wrong code. */
  failed(shareId: string, address: string): void {
    const now = this.clock.now();
    if (this.strikes.size > MAX_KEYS) this.forget(now);
    for (const [key, policy] of this.keys(shareId, address)) {
      const s = this.strikes.get(key) ?? { count: 0, until: 0, last: now };
      this.strikes.delete(key); // re-inserted below: the map's order is the order of last use
      s.count++;
      s.last = now;
      const over = s.count - policy.free;
      if (over > 0) s.until = now + Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(over - 1, 30));
      this.strikes.set(key, s);
    }
  }

  /** A correct code clears this client's count for the share (not its count across shares). */
  succeeded(shareId: string, address: string): void {
    this.strikes.delete(this.keys(shareId, address)[0]![0]);
  }

  /** Drops counters nobody used for a day, then, if still too many, the oldest (the map keeps insertion order). */
  private forget(now: number): void {
    for (const [key, s] of this.strikes) if (now - s.last > FORGET_MS && s.until <= now) this.strikes.delete(key);
    for (const key of this.strikes.keys()) {
      if (this.strikes.size <= MAX_KEYS * 0.9) break;
      this.strikes.delete(key);
    }
  }
}
