/**
 * Exit codes and the failure that carries one. Kept free of imports so that `haul --help` and the failure report load
 * nothing else.
 */

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
    /** The error name --json prints; by default the server's name for what the exit code means. */
    readonly error?: string,
  ) {
    super(message);
  }
}
