/**
 * Tasks that failed on a limit, remembered (per browser, in localStorage) so they continue by themselves once the
 * limit is lifted (seed 000 §4: "after payment the failed task continues"; continue-limited-tasks.ts). The list
 * imports nothing of the tasks' own code, so the upload queue and the limit dialog can both write to it.
 */

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

/** Hands over every remembered task and forgets them (each continues, or is remembered again). */
export function takeLimitedTasks(): LimitedTask[] {
  const list = read();
  write([]);
  return list;
}

/** Forgets tasks (cancelled, removed from the list). */
export function forgetLimitedTasks(ids: string[]): void {
  write(read().filter((t) => !ids.includes(t.id)));
}
