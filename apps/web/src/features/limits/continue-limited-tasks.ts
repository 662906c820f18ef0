/**
 * Continues the tasks a limit stopped (limited-tasks.ts) once it is lifted: the payment page calls it, and so does
 * the watch on the account's quotas when they rise.
 */
import { retryCloudTask } from '../offline/offline-api';
import { limitOf } from './limit-kinds';
import { rememberLimitedTask, takeLimitedTasks } from './limited-tasks';

let running: Promise<number> | null = null;

/**
 * Continues every remembered task: uploads resume from where they stopped, cloud downloads start again (create_type
 * RETRY). One that hits a limit again is remembered again. Answers how many were continued.
 */
export function continueLimitedTasks(): Promise<number> {
  running ??= (async () => {
    const list = takeLimitedTasks();
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
