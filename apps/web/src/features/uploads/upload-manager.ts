/**
 * Runs the upload queue (seed 000 §4): at most three at a time (or the person's own limit), each analysed (hashed, or a content-id check for
 * large files), created on the server (instantly when the content is already stored), sent over tus, then
 * confirmed. Pause, continue, retry and cancel; transmitting, paused and completed tasks are kept in IndexedDB.
 */
import { CID_THRESHOLD_BYTES, LIMITS } from '@haul/shared/plain';
import i18n from 'i18next';
import * as tus from 'tus-js-client';
import { isApiError } from '../../lib/api-error';
import { currentToken } from '../../lib/api-client';
import { errorMessage } from '../../lib/error-message';
import { settleFileChanges } from '../files/settle-changes';
import { forgetLocalTasks, saveLocalTask } from '../sync/local-db';
import { contentId, hashFile, hashRanges } from './file-hash';
import { cidExists, clashingFiles, createUpload, deleteTasks, getTask } from './uploads-api';
import { UPLOAD, UPLOAD_STATUS as S, ACTIVE, COMPLETED, uploadTaskId, type UploadStatus } from './upload-status';
import { askClash, askLarge, askRepeat } from './upload-questions';
import { asApiError, ConfirmTimeout, isUploadUrlGone, nextStep } from './upload-failure';
import { overflowing, parallelLimit, toStart } from './upload-queue';
import { getMe } from '../auth/auth-api';
import { useUploads, type UploadTask } from './upload-store';
import { forgetLimitedTasks } from '../limits/limited-tasks';
import { reportLimit } from '../limits/limit-store';
import { track } from '../../lib/stats';
import { PARALLEL_UPLOADS_KEY } from '../settings/setting-keys';

/** Picked files stay in memory only; a reload needs the file picked again to continue. */
const files = new Map<string, File>();
const running = new Map<string, { abort: AbortController; tus?: tus.Upload }>();

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

const get = (id: string) => useUploads.getState().tasks[id];
const patch = (id: string, change: Partial<UploadTask>) => {
  const was = get(id)?.status;
  if (change.status && change.status !== was && (change.status === S.COMPLETE || change.status === S.FAILED)) {
    track(change.status === S.COMPLETE ? 'local_upload_success' : 'local_upload_failed');
  }
  useUploads.getState().patch(id, change);
  schedulePersist(id);
};

// Persistence: transmitting, paused and completed tasks, throttled 500 ms per task.
const persistTimers = new Map<string, ReturnType<typeof setTimeout>>();
function schedulePersist(id: string) {
  if (persistTimers.has(id)) return;
  persistTimers.set(
    id,
    setTimeout(() => {
      persistTimers.delete(id);
      const t = get(id);
      if (!t) return void forgetLocalTasks([id]);
      if (t.status === S.TRANSMISSION || t.status === S.PAUSE || COMPLETED.includes(t.status)) void saveLocalTask({ ...t });
    }, UPLOAD.persistThrottleMs),
  );
}

export interface Picked {
  file: File;
  /** Folder path inside a picked folder ("Photos/2026"), '' for a single file. */
  relativePath: string;
}

/**
 * Queues files for a folder. Files uploaded to it before raise the repeat-upload question; unfinished ones continue;
 * names taken by files there raise the name-clash question (replace, keep both, skip), unless `newFolder` says the
 * folder was just made for these files.
 */
export async function addUploads(userId: string, picked: Picked[], parentId: string, opts: { newFolder?: boolean } = {}): Promise<void> {
  const store = useUploads.getState();
  const withIds = await Promise.all(
    picked.map(async (p) => ({ ...p, taskId: await uploadTaskId(parentId, p.file.name, p.file.size, p.file.type, p.relativePath) })),
  );
  const done = withIds.filter((p) => COMPLETED.includes(store.tasks[p.taskId]?.status as UploadStatus));
  const unfinished = withIds.filter((p) => store.tasks[p.taskId] && !done.includes(p));
  let fresh = withIds.filter((p) => !store.tasks[p.taskId]);
  let again: typeof done = [];
  if (done.length) {
    const choice = await askRepeat(done.map((p) => p.file.name));
    if (choice === 'cancel') return;
    if (choice === 'keep_both') again = done;
  }
  // Names taken by files in the folder: asked once for the batch.
  let replacing = new Set<string>();
  const clashing = fresh.length && !opts.newFolder ? await clashingFiles(parentId, fresh.map((p) => p.file.name)) : new Set<string>();
  if (clashing.size) {
    const choice = await askClash(fresh.filter((p) => clashing.has(p.file.name)).map((p) => p.file.name));
    if (choice === 'cancel') return;
    if (choice === 'skip') fresh = fresh.filter((p) => !clashing.has(p.file.name));
    if (choice === 'replace') replacing = clashing;
  }
  // Files of 4 GB or more need premium: a free account is told first, and may leave them out.
  let queued = [
    ...fresh.map((p) => ({ ...p, replace: replacing.has(p.file.name) })),
    ...again.map((p) => ({ ...p, taskId: `${p.taskId}-${Date.now().toString(36)}`, replace: false })),
  ];
  const large = queued.filter((p) => p.file.size >= LIMITS.freeUploadBytes && p.file.size <= LIMITS.maxUploadBytes);
  if (
    large.length &&
    !(await getMe().then(
      (me) => me.premium,
      () => false,
    ))
  ) {
    if ((await askLarge(large.map((p) => p.file.name))) === 'close') queued = queued.filter((p) => !large.includes(p));
  }
  for (const p of unfinished) {
    files.set(p.taskId, p.file);
    if (!ACTIVE.includes(get(p.taskId)!.status)) resume(p.taskId);
  }
  // A finished upload kept both ways is uploaded again as a new task; the server names the copy.
  for (const p of queued) {
    files.set(p.taskId, p.file);
    track('local_upload_submitted');
    const tooLarge = p.file.size > LIMITS.maxUploadBytes;
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    store.upsert({
      taskId: p.taskId,
      userId,
      taskType: 'upload',
      name: p.file.name,
      parentId,
      relativePath: p.relativePath,
      size: p.file.size,
      type: p.file.type,
      // Picked while offline: it waits, and starts by itself once the browser is back online.
      status: tooLarge ? S.FAILED : offline ? S.PAUSE : S.PENDING,
      offline: !tooLarge && offline,
      progress: 0,
      speed: 0,
      errorText: tooLarge ? i18n.t('uploads.tooLarge') : '',
      task_id: '',
      fileId: '',
      uploadUrl: '',
      attempts: 0,
      modifyTime: Date.now(),
      replace: p.replace,
    });
  }
  useUploads.setState({ panelOpen: true, tab: 'uploading' });
  kick(UPLOAD.refreshAfterAddMs);
}

// The manager loop: every 300 ms while work is waiting, 5 s when idle.
let loopTimer: ReturnType<typeof setTimeout> | undefined;
export function kick(delay = 0): void {
  clearTimeout(loopTimer);
  loopTimer = setTimeout(tick, delay);
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

function tick() {
  // The person's number of uploads at once (it follows the account), else the default; lowering it steps the newest
  // running ones back to the queue.
  const limit = parallelLimit(localStorage.getItem(PARALLEL_UPLOADS_KEY));
  const { tasks, order } = useUploads.getState();
  for (const id of overflowing(tasks, order, limit)) stepBack(id);
  const all = Object.values(useUploads.getState().tasks);
  // Offline, nothing starts: it would fail at once and spend a retry.
  for (const id of isOffline() ? [] : toStart(all, limit)) {
    if (!files.has(id)) {
      patch(id, { status: S.PAUSE, errorText: i18n.t('uploads.pickAgain') });
      continue;
    }
    void run(id);
  }
  const busy = Object.values(useUploads.getState().tasks).some((t) => t.status === S.PENDING || ACTIVE.includes(t.status));
  kick(busy ? UPLOAD.loopMs : UPLOAD.idleLoopMs);
}

/** A task over the limit pauses, then waits in the queue again. */
function stepBack(id: string): void {
  pause(id);
  setTimeout(() => {
    if (get(id)?.status === S.PAUSE) patch(id, { status: S.PENDING });
  }, UPLOAD.requeueMs);
}

async function run(id: string): Promise<void> {
  const file = files.get(id)!;
  const abort = new AbortController();
  running.set(id, { abort });
  const { signal } = abort;
  try {
    const t = get(id)!;
    // Continuing keeps the progress made: the server holds those bytes.
    patch(id, { status: S.ANALYSIS, progress: t.uploadUrl ? t.progress : 0, speed: 0, errorText: '', offline: false });
    let base = t.uploadUrl ? (t.sendBase ?? 0) : 0;
    let hash: string | undefined;
    if (t.uploadUrl) {
      // Continuing: the server already holds part of the bytes.
    } else {
      // Large files ask first whether the server may already have them: hashing 20 GB only pays off if so.
      const worthHashing = file.size <= CID_THRESHOLD_BYTES || (await cidExists(await contentId(file, signal), file.size));
      if (worthHashing) {
        hash = await hashFile(file, (f) => patch(id, { progress: f * UPLOAD.hashShare * 100 }), signal);
        base = UPLOAD.hashShare * 100;
      }
      signal.throwIfAborted();
      let answer = await createUpload({ parentId: t.parentId, name: t.name, size: file.size, hash, id, replace: t.replace });
      if (answer.proof_of_possession && hash) {
        const proof = {
          challenge: answer.proof_of_possession.challenge,
          answer: await hashRanges(file, answer.proof_of_possession.ranges, signal),
        };
        answer = await createUpload({ parentId: t.parentId, name: t.name, size: file.size, hash, proof, id, replace: t.replace });
      }
      if (answer.file) {
        // Speed upload: the content was already stored.
        patch(id, { status: S.TRANSMISSION, progress: 100, fileId: answer.file.id, task_id: answer.task?.id ?? '' });
        await sleep(UPLOAD.speedCompleteMs, signal);
        patch(id, { status: S.COMPLETE });
        void settleFileChanges();
        return;
      }
      if (!answer.resumable) throw new Error(i18n.t('uploads.noUploadUrl'));
      patch(id, { task_id: answer.task?.id ?? '', uploadUrl: answer.resumable.params.upload_url, sendBase: base });
    }
    patch(id, { status: S.TRANSMISSION, progress: base });
    await send(id, file, base, signal);
    await confirm(id, signal);
    patch(id, { status: S.COMPLETE, progress: 100, speed: 0 });
    void settleFileChanges();
  } catch (err) {
    if (signal.aborted) return; // paused or cancelled: whoever aborted set the status
    const t = get(id);
    if (!t) return;
    // An upload URL that is gone may be gone because the server finished it (after a restart): the task says so.
    const gone = isApiError(err, 'file_not_found') || isUploadUrlGone(err);
    if (gone && t.task_id && (await finishedOnServer(id, t.task_id))) return;
    // The network went away: no retry is spent, and the 'online' event continues it.
    if (isOffline()) return waitForNetwork(id);
    const step = nextStep(err, t.attempts);
    if (step.kind === 'pause') {
      // Not confirmed in time: the person continues it, and confirmation is asked again.
      patch(id, { status: S.PAUSE, speed: 0, errorText: (err as ConfirmTimeout).words });
      return;
    }
    if (step.kind === 'retry') {
      patch(id, { status: S.PAUSE, speed: 0, attempts: t.attempts + 1, ...(step.restart ? { uploadUrl: '', task_id: '' } : {}) });
      await sleep(step.delayMs);
      if (get(id)?.status === S.PAUSE) patch(id, { status: S.PENDING });
      kick();
      return;
    }
    const answer = asApiError(err);
    patch(id, { status: S.FAILED, speed: 0, errorText: errorMessage(answer) || i18n.t('uploads.failed') });
    // A limit opens its dialog, and the task continues by itself once the limit is lifted.
    if (step.limit) reportLimit(answer, { kind: 'upload', id });
  } finally {
    running.delete(id);
  }
}

function send(id: string, file: File, base: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    let lastBytes = 0;
    let lastAt = performance.now();
    const upload = new tus.Upload(file, {
      uploadUrl: get(id)!.uploadUrl,
      chunkSize: 16 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      storeFingerprintForResuming: false,
      async onBeforeRequest(req) {
        const token = await currentToken();
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
      },
      onProgress(sent, total) {
        const now = performance.now();
        const speed = now - lastAt >= 1000 ? ((sent - lastBytes) * 1000) / (now - lastAt) : undefined;
        if (speed !== undefined) {
          lastBytes = sent;
          lastAt = now;
        }
        const progress = Math.min(UPLOAD.progressCap, base + (total ? sent / total : 1) * (100 - base));
        patch(id, speed === undefined ? { progress } : { progress, speed });
      },
      onSuccess: () => resolve(),
      onError: (err) => reject(err),
    });
    running.get(id)!.tus = upload;
    signal.addEventListener('abort', () => void upload.abort(false));
    upload.start();
  });
}

/** Whether the server already placed this upload's file (then the task is marked complete here too). */
async function finishedOnServer(id: string, taskId: string): Promise<boolean> {
  const task = await getTask(taskId).catch(() => null);
  if (task?.phase !== 'PHASE_TYPE_COMPLETE') return false;
  patch(id, { status: S.COMPLETE, progress: 100, speed: 0, fileId: task.file_id });
  void settleFileChanges();
  return true;
}

/** After the last byte the server checks and stores the file; poll its task until it says so. */
async function confirm(id: string, signal: AbortSignal): Promise<void> {
  const taskId = get(id)?.task_id;
  if (!taskId) return;
  for (const seconds of UPLOAD.confirmPollSeconds) {
    const task = await getTask(taskId);
    if (task.phase === 'PHASE_TYPE_COMPLETE') {
      patch(id, { fileId: task.file_id });
      return;
    }
    if (task.phase === 'PHASE_TYPE_ERROR') throw new Error(task.message || i18n.t('uploads.failed'));
    await sleep(seconds * 1000, signal);
  }
  throw new ConfirmTimeout(i18n.t('uploads.timeout'));
}

/** Stops a task until the browser is back online, keeping its progress. */
function waitForNetwork(id: string): void {
  const r = running.get(id);
  patch(id, { status: S.PAUSE, speed: 0, offline: true });
  r?.abort.abort();
}

if (typeof window !== 'undefined') {
  // Offline: uploads sending bytes stop at once and say why, instead of failing their retries one by one.
  window.addEventListener('offline', () => {
    for (const t of Object.values(useUploads.getState().tasks)) if (ACTIVE.includes(t.status)) waitForNetwork(t.taskId);
  });
  // Back online: what stopped for the network continues now, without waiting for a retry's timer.
  window.addEventListener('online', () => {
    for (const t of Object.values(useUploads.getState().tasks)) if (t.offline && t.status === S.PAUSE) patch(t.taskId, { status: S.PENDING, offline: false });
    kick();
  });
}

export function pause(id: string): void {
  const r = running.get(id);
  patch(id, { status: S.PAUSE, speed: 0, offline: false });
  r?.abort.abort();
}

/** Continue a paused or failed task; one without its file waits for it to be picked again. */
export function resume(id: string): void {
  const t = get(id);
  if (!t) return;
  if (t.size > LIMITS.maxUploadBytes) return patch(id, { status: S.FAILED, errorText: i18n.t('uploads.tooLarge') });
  if (!files.has(id)) return patch(id, { status: S.PAUSE, errorText: i18n.t('uploads.pickAgain') });
  patch(id, { status: S.PENDING, errorText: '', attempts: 0, offline: false });
  kick();
}

/** Removes the task; an upload in flight or paused is cancelled on the server and its bytes dropped. */
export async function cancel(id: string): Promise<void> {
  forgetLimitedTasks([id]);
  const t = get(id);
  if (!t) return;
  running.get(id)?.abort.abort();
  useUploads.getState().remove([id]);
  files.delete(id);
  await forgetLocalTasks([id]);
  if (t.task_id && !COMPLETED.includes(t.status)) await deleteTasks([t.task_id], true).catch(() => undefined);
}

export async function clearCompleted(): Promise<void> {
  const done = Object.values(useUploads.getState().tasks).filter((t) => COMPLETED.includes(t.status));
  useUploads.getState().remove(done.map((t) => t.taskId));
  await forgetLocalTasks(done.map((t) => t.taskId));
}

/** Deleting a file removes the finished uploads that made it (seed 000 §4): the list names no file that is gone. */
export async function forgetUploadsOf(fileIds: readonly string[]): Promise<void> {
  const gone = new Set(fileIds);
  const done = Object.values(useUploads.getState().tasks).filter((t) => t.fileId && gone.has(t.fileId) && COMPLETED.includes(t.status));
  if (!done.length) return;
  useUploads.getState().remove(done.map((t) => t.taskId));
  await forgetLocalTasks(done.map((t) => t.taskId));
}
