/**
 * Whose task a worker takes next: accounts take turns at background work. Among the accounts with a task waiting, the
 * one with the fewest tasks of this kind running (in every process) goes first, then the one served longest ago, then
 * the one waiting longest; an account at its cap of running tasks waits, so one account's queue never fills every slot.
 */

export interface Waiting {
  userId: string;
  /** Its oldest waiting task's creation time. */
  oldest: number;
  /** Its tasks of this kind running now. */
  running: number;
  /** When a task of its was last claimed; null when never. */
  lastClaimed: number | null;
}

/** The account whose oldest waiting task is claimed next, or null when every waiting account is at its cap. */
export function nextTurn(waiting: Waiting[], cap: number): string | null {
  let best: Waiting | null = null;
  for (const w of waiting) {
    if (w.running >= cap) continue;
    if (!best || before(w, best)) best = w;
  }
  return best?.userId ?? null;
}

function before(a: Waiting, b: Waiting): boolean {
  if (a.running !== b.running) return a.running < b.running;
  const la = a.lastClaimed ?? -Infinity;
  const lb = b.lastClaimed ?? -Infinity;
  if (la !== lb) return la < lb;
  return a.oldest < b.oldest;
}

/** How many tasks of one kind an account may run at once: all slots but one, so another account always finds one. */
export const perAccountCap = (concurrency: number, configured: number): number => (configured > 0 ? configured : Math.max(1, concurrency - 1));
