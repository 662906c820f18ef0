import { describe, expect, it } from 'vitest';
import { ApiError, isApiError } from '../../lib/api-error';
import { asApiError, CONFIRM_TIMEOUT, ConfirmTimeout, nextStep } from './upload-failure';
import { UPLOAD } from './upload-status';

/** What tus-js-client rejects with: the raw answer, or none when the request never got one. */
const tusError = (status: number | null, body = '') =>
  Object.assign(new Error('tus: failed'), {
    originalResponse: status === null ? null : { getStatus: () => status, getBody: () => body },
  });

const limitBody = JSON.stringify({ error: 'file_space_not_enough', error_description: 'There is not enough storage space.' });

describe('what a failed upload does next', () => {
  it('pauses an upload whose confirmation timed out, with the timeout result', () => {
    const err = new ConfirmTimeout('not confirmed in time');
    expect(nextStep(err, 0)).toEqual({ kind: 'pause' });
    expect(nextStep(err, UPLOAD.retries)).toEqual({ kind: 'pause' });
    expect([err.code, err.message]).toEqual([CONFIRM_TIMEOUT.code, CONFIRM_TIMEOUT.message]);
    expect(CONFIRM_TIMEOUT).toEqual({ code: -1000, message: 'timeout' });
  });

  it('fails a limit at once, from a call or from the upload itself', () => {
    expect(nextStep(new ApiError(403, 'file_space_not_enough', 'full'), 0)).toEqual({ kind: 'fail', limit: true });
    expect(nextStep(new ApiError(403, 'monthly_upload_size_exceeded', '{}'), 0)).toEqual({ kind: 'fail', limit: true });
    expect(nextStep(tusError(403, limitBody), 0)).toEqual({ kind: 'fail', limit: true });
  });

  it('fails other refusals at once', () => {
    expect(nextStep(new ApiError(400, 'invalid_argument', 'bad name'), 0)).toEqual({ kind: 'fail', limit: false });
    expect(nextStep(new ApiError(413, 'file_size_too_large', 'too large'), 0)).toEqual({ kind: 'fail', limit: false });
    expect(nextStep(tusError(403, '{"error":"permission_denied"}'), 0)).toEqual({ kind: 'fail', limit: false });
  });

  it('tries passing failures again 5 times, 3 s apart, then fails', () => {
    const passing = [
      new ApiError(0, 'local_error', 'offline'),
      new ApiError(503, 'service_unavailable', 'busy'),
      new ApiError(408, 'local_error', 'slow'),
      new ApiError(429, 'too_many_requests', 'wait'),
      tusError(null),
      tusError(502, '<html>'),
      new Error('something odd'),
    ];
    for (const err of passing) {
      for (let attempts = 0; attempts < 5; attempts++) {
        expect(nextStep(err, attempts)).toEqual({ kind: 'retry', delayMs: 3000, restart: false });
      }
      expect(nextStep(err, 5)).toEqual({ kind: 'fail', limit: false });
    }
  });

  it('starts over with a new upload URL when the old one is gone', () => {
    expect(nextStep(tusError(404, '{"error":"file_not_found"}'), 0)).toEqual({ kind: 'retry', delayMs: 3000, restart: true });
    expect(nextStep(tusError(404), UPLOAD.retries)).toEqual({ kind: 'fail', limit: false });
  });

  it("reads the server's error object out of a tus failure", () => {
    const e = asApiError(tusError(403, limitBody));
    expect(isApiError(e, 'file_space_not_enough')).toBe(true);
    expect((e as ApiError).status).toBe(403);
    expect((e as ApiError).message).toBe('There is not enough storage space.');
    expect((asApiError(tusError(null)) as ApiError).status).toBe(0);
  });
});
