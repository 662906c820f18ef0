/** Cloud downloads as tasks: they pause and continue, a failed one is made anew, and removing one drops its bytes. */
import type { TaskKind } from '../tasks/task-kinds.js';
import { dropOfflineBytes, OFFLINE, retryTask, setOfflinePhase } from './offline.service.js';

export const offlineTaskKind: TaskKind = {
  type: OFFLINE,
  setPhase: (ctx, userId, task, phase) => setOfflinePhase(ctx, userId, task.id, phase),
  retry: (ctx, userId, task, requestId) => retryTask(ctx, userId, task.id, requestId),
  // A download that is running stops when its worker next reports; one that is not leaves no bytes behind.
  release: (ctx, _userId, task) => dropOfflineBytes(ctx.config.dataDir, task.id),
};
