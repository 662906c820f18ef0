/**
 * What a kind of task does beyond what every task row shares. The tasks routes read, list, pause, retry and remove any
 * task through these, knowing no kind by name; each area declares its own kind (offline/offline-task-kind.ts,
 * uploads/upload-task-kind.ts) and app.ts hands the list to the routes. A kind without a hook cannot do that thing.
 */
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';

export interface TaskKind {
  /** tasks.type. */
  type: string;
  /** Pauses (PHASE_TYPE_PAUSED) or continues (PHASE_TYPE_PENDING) the task; answers the row as it is now. */
  setPhase?(ctx: AppContext, userId: string, task: TaskRow, phase: string): Promise<TaskRow>;
  /** Makes a failed task anew and answers the new row (the old one goes). */
  retry?(ctx: AppContext, userId: string, task: TaskRow, requestId: string): Promise<TaskRow>;
  /** Lets go of what the task holds outside its row (bytes in flight, an upload), before the row is deleted. */
  release?(ctx: AppContext, userId: string, task: TaskRow): Promise<void>;
}

export type TaskKinds = ReadonlyMap<string, TaskKind>;

export const taskKinds = (kinds: TaskKind[]): TaskKinds => new Map(kinds.map((k) => [k.type, k]));
