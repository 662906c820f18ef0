/** How the command line answers: words for people, --json for scripts, and exit codes that mean something. */
import { ApiError, LOCAL_ERROR } from '@haul/client';

/** Exit codes (also in `haul help`). */
export const EXIT = {
  OK: 0,
  /** Anything else that failed. */
  ERROR: 1,
  /** The command line itself was wrong. */
  USAGE: 2,
  /** A file, folder, task or share does not exist. */
  NOT_FOUND: 3,
  /** Not signed in, or the session has ended: run `haul login`. */
  AUTH: 4,
  /** The server could not be reached or was busy: the same command may work later. */
  TEMPORARY: 5,
  /** Some items were done and some failed. */
  PARTIAL: 6,
  /** A quota or plan limit refused it. */
  LIMIT: 7,
  /** It already exists. */
  CONFLICT: 8,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.ERROR,
  ) {
    super(message);
  }
}

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

export interface Output {
  json: boolean;
  /** A result: JSON in --json mode, else the words. */
  result(value: unknown, words: () => string): void;
  /** A note for people, on stderr; silent in --json mode. */
  note(text: string): void;
}

export function makeOutput(json: boolean): Output {
  return {
    json,
    result(value, words) {
      process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${words()}\n`);
    },
    note(text) {
      if (!json) process.stderr.write(`${text}\n`);
    },
  };
}
