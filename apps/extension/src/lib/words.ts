/**
 * Failures said in words: the server's stable error names become sentences a person can act on (seed: "stable error
 * codes from the server, words in the client"). English for now; every sentence the extension shows is here.
 */
import { isApiError } from '@haul/client';
import { LIMIT_ERRORS } from '@haul/shared/plain';
import { hostOf } from './address';

export const SIGNED_OUT = 'You are signed out of Haul. Open the extension’s options to connect again.';
export const NOT_CONNECTED = 'This browser is not connected to a Haul yet. Open the extension’s options to connect.';
export const NO_LINK = 'Nothing to send: Haul fetches http, https and magnet links.';

/** The address answered, but not as a Haul the extension can use (another site, or a Haul too old to allow it). */
export class NotHaulError extends Error {
  constructor(readonly server: string) {
    super(`${hostOf(server)} does not answer as a Haul server. Check the address (and that Haul is up to date).`);
    this.name = 'NotHaulError';
  }
}

const LIMITS: readonly string[] = LIMIT_ERRORS;

/** What went wrong, for the person: the sentence to show. */
export function describeFailure(err: unknown, server: string): string {
  if (err instanceof NotHaulError) return err.message;
  if (isApiError(err)) {
    if (err.status === 0) return `Haul at ${hostOf(server)} cannot be reached: check the address, and that the server is running.`;
    if (err.code === 'unauthenticated' || err.code === 'invalid_grant') return SIGNED_OUT;
    if (LIMITS.includes(err.code)) return `Limit reached: ${err.message}`;
    if (err.code === 'invalid_argument') return `Haul cannot fetch this: ${err.message}`;
    if (err.code === 'file_not_found') return 'The folder for cloud downloads is gone: choose another in the extension’s options.';
    if (err.code === 'too_many_requests') return 'Haul asks to slow down: try again in a moment.';
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** "2 links added to Haul, into Films." */
export function addedWords(count: number, folderName: string, skipped: number): string {
  const what = count === 1 ? 'Added to Haul' : `${count} links added to Haul`;
  const left = skipped ? ` ${skipped} ${skipped === 1 ? 'line was' : 'lines were'} not a link Haul can fetch.` : '';
  return `${what}, into ${folderName}.${left}`;
}
