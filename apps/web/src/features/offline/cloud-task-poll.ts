/**
 * After a batch action on cloud tasks (pause, continue, retry, remove, add), the list is read again up to 10 times,
 * 500 ms apart, until every listed task is complete (seed 000 §4 "Cloud task view and polling"), so the change shows at
 * once. The list's own polling goes on beside it, keeping the progress of running downloads live.
 */
import { PHASE } from '@haul/shared/plain';
import type { DriveTask } from '@haul/shared';

export const AFTER_ACTION_POLL = { times: 10, everyMs: 500 } as const;

export interface PollDeps {
  read: () => Promise<readonly DriveTask[]>;
  sleep: (ms: number) => Promise<void>;
  /** Stops the polling (the action was followed by another, or the list went away). */
  stopped?: () => boolean;
}

/** Reads the tasks until all are complete or 10 reads are done; answers how many reads it made. */
export async function pollAfterAction({ read, sleep, stopped = () => false }: PollDeps): Promise<number> {
  for (let reads = 1; reads <= AFTER_ACTION_POLL.times; reads++) {
    await sleep(AFTER_ACTION_POLL.everyMs);
    if (stopped()) return reads - 1;
    const tasks = await read().catch(() => null);
    // An unauthenticated answer (or any failed read) ends it: the list's own polling carries on.
    if (!tasks) return reads;
    if (tasks.every((t) => t.phase === PHASE.COMPLETE)) return reads;
  }
  return AFTER_ACTION_POLL.times;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Announces a batch action on cloud tasks: the list on show polls after it. */
export function followCloudTasks(): void {
  listeners.forEach((l) => l());
}

/** The list on show subscribes here; answers the unsubscribe. */
export function onCloudAction(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
