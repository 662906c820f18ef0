/**
 * Tasks that failed on a limit, remembered (per browser, in localStorage) so they continue by themselves once the
 * limit is lifted (seed 000 §4: "after payment the failed task continues"): the payment page calls
 * continueLimitedTasks, and so does the watch on the account's quotas when they rise.
 */
import { retryCloudTask } from '../offline/offline-api';
import { limitOf } from './limit-kinds';

export interface LimitedTask {
  kind: 'upload' | 'offline';
  /** The upload's local task id, or the cloud download's server task id. */
  id: string;
}

const KEY = 'haul.limitedTasks';

function read(): LimitedTask[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? '[]') as LimitedTask[];
    return Array.isArray(list) ? list.filter((t) => t && (t.kind === 'upload' || t.kind === 'offline') && typeof t.id === 'string') : [];
  } catch {
    return [];
  }
}

const write = (list: LimitedTask[]) => localStorage.setItem(KEY, JSON.stringify(list.slice(-200)));

/** Remembers a task that a limit stopped. */
export function rememberLimitedTask(task: LimitedTask): void {
  const list = read().filter((t) => !(t.kind === task.kind && t.id === task.id));
  write([...list, task]);
}

/** The tasks waiting for a limit to lift. */
export const limitedTasks = (): LimitedTask[] => read();

/** Forgets tasks (cancelled, removed from the list). */
export function forgetLimitedTasks(ids: string[]): void {
  write(read().filter((t) => !ids.includes(t.id)));
}

let running: Promise<number> | null = null;

/**
 * Continues every remembered task: uploads resume from where they stopped, cloud downloads start again (create_type
 * RETRY). One that hits a limit again is remembered again. Answers how many were continued.
 */
export function continueLimitedTasks(): Promise<number> {
  running ??= (async () => {
    const list = read();
    write([]);
    let continued = 0;
    for (const t of list) {
      if (t.kind === 'upload') {
        // Loaded on demand, as the upload code is everywhere else.
        const { resume } = await import('../uploads/upload-manager');
        resume(t.id);
        continued++;
        continue;
      }
      try {
        await retryCloudTask(t.id);
        continued++;
      } catch (err) {
        if (limitOf(err)) rememberLimitedTask(t);
      }
    }
    return continued;
  })().finally(() => {
    running = null;
  });
  return running;
}
