/**
 * Usage events for the operator's counts (POST /drive/v1/stats, nothing about who is kept): batched for 2 s and sent
 * with fetch's keepalive, so a page being left still sends its last batch. Not through the API client: the call needs
 * no session, and a failure is dropped, since statistics must never trouble the person.
 */
import type { StatEvent } from '@haul/shared';

const BATCH_MS = 2000;
const MAX_BATCH = 50;
const queue: StatEvent[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

export function track(event: StatEvent): void {
  queue.push(event);
  if (queue.length >= MAX_BATCH) flushStats();
  else timer ??= setTimeout(flushStats, BATCH_MS);
}

export function flushStats(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  while (queue.length) {
    const data = queue.splice(0, MAX_BATCH).map((event) => ({ event }));
    void fetch('/drive/v1/stats', { method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client: 'web', data }) }).catch(() => undefined);
  }
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flushStats);
