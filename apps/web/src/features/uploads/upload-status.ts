/** Upload task statuses and the rules around them (seed 000 §4 "Upload task status"). */
export const UPLOAD_STATUS = {
  PENDING: 'PENDING',
  ANALYSIS: 'ANALYSIS',
  TRANSMISSION: 'TRANSMISSION',
  PAUSE: 'UPLOAD_TASK_PAUSE',
  FAILED: 'UPLOAD_TASK_FAILED',
  COMPLETE: 'UPLOAD_TASK_COMPLETE',
  CLOUD_COMPLETE: 'CLOUD_TASK_COMPLETE',
} as const;
export type UploadStatus = (typeof UPLOAD_STATUS)[keyof typeof UPLOAD_STATUS];

const S = UPLOAD_STATUS;
export const UNFINISHED: readonly UploadStatus[] = [S.PENDING, S.ANALYSIS, S.TRANSMISSION, S.PAUSE];
export const COMPLETED: readonly UploadStatus[] = [S.COMPLETE, S.CLOUD_COMPLETE];
export const IN_PROGRESS: readonly UploadStatus[] = [S.PENDING, S.ANALYSIS, S.TRANSMISSION, S.PAUSE, S.FAILED];
export const ACTIVE: readonly UploadStatus[] = [S.ANALYSIS, S.TRANSMISSION];

export const UPLOAD = {
  maxParallel: 3,
  /** The most a person may set the parallel uploads to. */
  maxParallelOverride: 10,
  /** A task stepped back because more ran than the limit waits this long before it queues again. */
  requeueMs: 300,
  loopMs: 300,
  idleLoopMs: 5000,
  refreshAfterAddMs: 200,
  retries: 5,
  retryDelayMs: 3000,
  speedCompleteMs: 200,
  progressCap: 99.99,
  /** Hashing counts for 80 % of the progress of a file that is hashed before it is sent. */
  hashShare: 0.8,
  confirmPollSeconds: [1, 3, 5, 30, 60, 60, 60, 60, 60, 60],
  persistThrottleMs: 500,
} as const;

export type UploadAction = 'pause' | 'start' | 'retry' | 'view';

/** The one action offered for a task in the transfer list. */
export function actionFor(status: UploadStatus): UploadAction {
  if (status === S.PAUSE) return 'start';
  if (status === S.FAILED) return 'retry';
  if (COMPLETED.includes(status)) return 'view';
  return 'pause';
}

/**
 * The 24-character id of an upload: the same file picked again for the same folder is the same task. SHA-256 from
 * hash-wasm, not crypto.subtle, which browsers withhold from pages not on HTTPS or localhost (Haul opened at its LAN
 * address); the digests are the same.
 */
export async function uploadTaskId(parentId: string, name: string, size: number, type: string, relativePath: string): Promise<string> {
  const { sha256 } = await import('hash-wasm');
  const hex = await sha256(new TextEncoder().encode(JSON.stringify([parentId, name, size, type, relativePath])));
  return hex.slice(0, 24);
}
