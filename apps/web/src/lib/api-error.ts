/** The seeds' error object as a thrown value; `code` is the stable error name the client maps to words. */
import type { ErrorBody } from '@haul/shared';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: ErrorBody,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Client-side failures (network down, unreadable answer) use this code. */
export const LOCAL_ERROR = 'local_error';

export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}
