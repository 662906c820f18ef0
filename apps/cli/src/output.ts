/** How the command line answers: words for people, --json for scripts, and exit codes that mean something. */
import { ApiError, LOCAL_ERROR } from '@haul/client';
import { CliError, EXIT } from './exit.js';

export { CliError, EXIT } from './exit.js';

const LIMIT_ERRORS = new Set([
  'file_space_not_enough',
  'file_size_too_large',
  'task_daily_create_limit',
  'monthly_upload_size_exceeded',
  'monthly_cloud_download_size_exceeded',
  'monthly_download_size_exceeded',
  'daily_download_size_exceeded',
]);

/** The exit code a failure means. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof ApiError) {
    if (err.code === 'unauthenticated' || err.code === 'invalid_grant') return EXIT.AUTH;
    if (err.code === 'file_not_found' || err.code === 'share_not_found' || err.code === 'not_found') return EXIT.NOT_FOUND;
    if (LIMIT_ERRORS.has(err.code)) return EXIT.LIMIT;
    if (err.code === 'file_duplicated_name' || err.code === 'already_exists') return EXIT.CONFLICT;
    if (err.code === LOCAL_ERROR || err.code === 'unavailable' || err.code === 'too_many_requests' || err.status >= 500) return EXIT.TEMPORARY;
  }
  return EXIT.ERROR;
}

/** The one line a failure prints, with what to do about it where there is something. */
export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof ApiError && (err.code === 'unauthenticated' || err.code === 'invalid_grant') && !/login/.test(text)) {
    return `${text} Run \`haul login\` to sign in.`;
  }
  return text;
}

/** What --json prints for a CliError: the server's error name for what its exit code means. */
const ERROR_NAMES: Record<number, string> = {
  [EXIT.USAGE]: 'invalid_argument',
  [EXIT.NOT_FOUND]: 'file_not_found',
  [EXIT.AUTH]: 'unauthenticated',
  [EXIT.TEMPORARY]: 'unavailable',
  [EXIT.PARTIAL]: 'partly_failed',
  [EXIT.LIMIT]: 'resource_exhausted',
  [EXIT.CONFLICT]: 'already_exists',
};

/** A failure as the server's error object names it, for --json: {"error": name, "error_description": words}. */
export function errorObject(err: unknown): { error: string; error_description: string } {
  const error = err instanceof ApiError ? err.code : err instanceof CliError ? (err.error ?? ERROR_NAMES[err.exitCode] ?? 'failed') : 'failed';
  return { error, error_description: messageOf(err) };
}

export interface Output {
  json: boolean;
  /** Whether a result has been printed: a failure after one (some items failed) adds no second JSON value. */
  readonly printed: boolean;
  /** A result: JSON in --json mode, else the words. */
  result(value: unknown, words: () => string): void;
  /** A note for people, on stderr; silent in --json mode. */
  note(text: string): void;
}

export function makeOutput(json: boolean): Output {
  let printed = false;
  return {
    json,
    get printed() {
      return printed;
    },
    result(value, words) {
      printed = true;
      process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${words()}\n`);
    },
    note(text) {
      if (!json) process.stderr.write(`${text}\n`);
    },
  };
}
