/**
 * What a failed upload does next (seed 000 §4): a confirmation that timed out pauses the task; a limit fails it at once
 * (and opens the limit dialog); another refusal of the request fails it at once; anything passing (network, 5xx, 408,
 * 429, a failure of the client's own) is tried again, 5 times 3 s apart, then fails.
 */
import { ApiError, isApiError, LOCAL_ERROR } from '../../lib/api-error';
import { limitOf } from '../limits/limit-kinds';
import { UPLOAD } from './upload-status';

/** The seeds' timeout result of confirmation polling. */
export const CONFIRM_TIMEOUT = { code: -1000, message: 'timeout' } as const;

/** Thrown when the server has not confirmed an upload after every poll. */
export class ConfirmTimeout extends Error {
  readonly code = CONFIRM_TIMEOUT.code;
  constructor(readonly words: string) {
    super(CONFIRM_TIMEOUT.message);
  }
}

export type NextStep =
  | { kind: 'pause' }
  /** `restart`: the upload URL is gone (expired on the server), so the next try asks for a new one. */
  | { kind: 'retry'; delayMs: number; restart: boolean }
  | { kind: 'fail'; limit: boolean };

interface TusFailure {
  message?: string;
  originalResponse?: { getStatus(): number; getBody(): string } | null;
}

/**
 * tus-js-client's errors carry the raw answer; the server's error object in it becomes an ApiError like any other
 * call's, so limits and words are read the same way. A failure before any answer is a network one (status 0).
 */
export function asApiError(err: unknown): unknown {
  if (isApiError(err) || !err || typeof err !== 'object' || !('originalResponse' in err)) return err;
  const res = (err as TusFailure).originalResponse;
  if (!res) return new ApiError(0, LOCAL_ERROR, (err as TusFailure).message ?? '');
  let body: { error?: string; error_description?: string } | undefined;
  try {
    body = JSON.parse(res.getBody()) as typeof body;
  } catch {
    body = undefined;
  }
  const status = res.getStatus();
  const message = body?.error_description || body?.error || (err as TusFailure).message || String(status);
  return new ApiError(status, body?.error ?? LOCAL_ERROR, message, body?.error ? (body as ApiError['body']) : undefined);
}

/** The tus server no longer knows the upload URL (expired, or finished after a restart). */
export const isUploadUrlGone = (err: unknown) => (err as TusFailure | null)?.originalResponse?.getStatus() === 404;

/** A status worth waiting out: no answer, the server's own trouble, a timeout or too many requests. */
export const isTransientStatus = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

/** The step after a failure, given the retries already spent on this task. */
export function nextStep(err: unknown, attempts: number): NextStep {
  if (err instanceof ConfirmTimeout) return { kind: 'pause' };
  const e = asApiError(err);
  if (limitOf(e)) return { kind: 'fail', limit: true };
  const restart = isUploadUrlGone(err);
  if (isApiError(e) && !isTransientStatus(e.status) && !restart) return { kind: 'fail', limit: false };
  return attempts < UPLOAD.retries ? { kind: 'retry', delayMs: UPLOAD.retryDelayMs, restart } : { kind: 'fail', limit: false };
}
