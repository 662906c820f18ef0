/**
 * Which uploads run (seed 000 §4): a waiting task starts while fewer than the limit are analysed or sent, oldest
 * waiting first; when more run than the limit (it was lowered), the newest extras step back to the queue.
 */
import { ACTIVE, UPLOAD, UPLOAD_STATUS as S, type UploadStatus } from './upload-status';

interface QueuedTask {
  taskId: string;
  status: UploadStatus;
  modifyTime: number;
}

/** Waiting tasks to start now, oldest waiting first, so that at most `limit` run. */
export function toStart(tasks: readonly QueuedTask[], limit: number): string[] {
  const running = tasks.filter((t) => ACTIVE.includes(t.status)).length;
  const waiting = tasks.filter((t) => t.status === S.PENDING).sort((a, b) => a.modifyTime - b.modifyTime);
  return waiting.slice(0, Math.max(0, limit - running)).map((t) => t.taskId);
}

/** Running tasks beyond the limit, newest first; `order` lists task ids newest first, as the transfer list does. */
export function overflowing(tasks: Readonly<Record<string, QueuedTask>>, order: readonly string[], limit: number): string[] {
  const running = order.filter((id) => {
    const status = tasks[id]?.status;
    return !!status && ACTIVE.includes(status);
  });
  return running.slice(0, Math.max(0, running.length - limit));
}

/** The limit in force: the person's override when it is a sensible number, else the default of three. */
export function parallelLimit(override: unknown): number {
  const n = Number(override);
  return Number.isInteger(n) && n >= 1 && n <= UPLOAD.maxParallelOverride ? n : UPLOAD.maxParallel;
}
