/** The error object every failed call answers with, and the error names the clients act on. */

export interface ErrorBody {
  error: string;
  error_code: number;
  error_description: string;
  error_uri: string;
  details: unknown[];
}

/** error name → numeric error_code (gRPC-style codes; file_in_recycle_bin is 9 as the clients expect). */
export const ERROR_CODES = {
  invalid_argument: 3,
  file_not_found: 5,
  file_duplicated_name: 6,
  already_exists: 6,
  permission_denied: 7,
  file_space_not_enough: 8,
  file_size_too_large: 3,
  file_hash_mismatch: 3,
  /** An archive (or the entries chosen) needs a password, and none or a wrong one was given. */
  archive_password_wrong: 3,
  task_daily_create_limit: 8,
  monthly_upload_size_exceeded: 8,
  monthly_cloud_download_size_exceeded: 8,
  monthly_download_size_exceeded: 8,
  daily_download_size_exceeded: 8,
  resource_exhausted: 8,
  too_many_requests: 8,
  file_in_recycle_bin: 9,
  /** A selection holding a file flagged sensitive cannot be shared (clients: share-files-has-sensitive-file). */
  sensitive_resource: 9,
  share_not_found: 5,
  failed_precondition: 9,
  invalid_grant: 16,
  unauthenticated: 16,
  /** Device sign-in (RFC 8628 §3.5): not approved yet, polled too fast, the code ran out, the person said no. */
  authorization_pending: 9,
  slow_down: 8,
  expired_token: 16,
  access_denied: 7,
  /** The password was right; the account also asks for a code from its authenticator app (or a recovery code). */
  two_factor_required: 7,
  /** OAuth (RFC 6749 §5.2): an app's credentials are missing, unknown or wrong. */
  invalid_client: 16,
  not_found: 5,
  method_not_allowed: 12,
  payload_too_large: 3,
  internal: 13,
  unavailable: 14,
} as const;
export type ErrorName = keyof typeof ERROR_CODES;

/** Builds the wire error object. */
export function errorBody(error: ErrorName, description: string, details: unknown[] = []): ErrorBody {
  return { error, error_code: ERROR_CODES[error], error_description: description, error_uri: '', details };
}
