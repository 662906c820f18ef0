/** The API's error object as a thrown value; `code` is the stable error name a client acts on. */
import type { ErrorBody } from '@haul/shared';
import { describeError } from '@haul/shared/plain';

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

/** Failures on the client's side (network down, an unreadable answer) carry this code. */
export const LOCAL_ERROR = 'local_error';

export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}

/** The ApiError of a failed answer: the server's error object when it sent one. */
export async function errorOf(res: Response): Promise<ApiError> {
  let body: Partial<ErrorBody> | undefined;
  try {
    body = (await res.json()) as Partial<ErrorBody>;
  } catch {
    body = undefined;
  }
  const code = body?.error ?? (res.status === 401 ? 'unauthenticated' : LOCAL_ERROR);
  // A limit's description is JSON details (rules/limit-details.ts): the message is its title, the details stay in body.
  const message = (body?.error_description && describeError(body.error_description)) || body?.error || `${res.status} ${res.statusText}`;
  return new ApiError(res.status, code, message, body as ErrorBody | undefined);
}
