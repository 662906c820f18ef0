/**
 * Failures said in words: the server's stable error names become sentences a person can act on (seed: "stable error
 * codes from the server, words in the client"), in the person's language (lib/i18n.ts). A limit also names the
 * drive's dialog that explains it and offers more room.
 */
import { isApiError } from '@haul/client';
import { LIMIT_ERRORS } from '@haul/shared/plain';
import { hostOf } from './address';
import { t } from './i18n';

export const signedOutWords = (): string => t('signedOut');
export const notConnectedWords = (): string => t('notConnected');
export const noLinkWords = (): string => t('noLink');

/** The address answered, but not as a Haul the extension can use (another site, or a Haul too old to allow it). */
export class NotHaulError extends Error {
  constructor(readonly server: string) {
    super(t('notHaul', { host: hostOf(server) }));
    this.name = 'NotHaulError';
  }
}

const LIMITS: readonly string[] = LIMIT_ERRORS;
/** Limits about room in the drive; the others are allowances of transfer and tasks. */
const STORAGE_LIMITS: readonly string[] = ['file_space_not_enough', 'file_size_too_large'];

/** The drive's dialog about a limit: storage room, or transfer and task allowances. */
export interface LimitLink {
  href: string;
  label: string;
}

/** Whether an error name is a limit of the account. */
export const isLimitError = (code: string): boolean => LIMITS.includes(code) || STORAGE_LIMITS.includes(code);

/** The drive's page that opens the dialog about the limit named `code` (seed 000: action=show_…_dialog). */
export function limitLinkFor(code: string, server: string): LimitLink | null {
  if (!isLimitError(code)) return null;
  const storage = STORAGE_LIMITS.includes(code);
  return {
    href: `${server}/drive/all?action=${storage ? 'show_storage_dialog' : 'show_traffic_dialog'}`,
    label: storage ? t('seeStorage') : t('seeTraffic'),
  };
}

/** The limit link of a failed call, when a limit is what stopped it. */
export const limitLinkOf = (err: unknown, server: string): LimitLink | null => (isApiError(err) ? limitLinkFor(err.code, server) : null);

/** What went wrong, for the person: the sentence to show. */
export function describeFailure(err: unknown, server: string): string {
  if (err instanceof NotHaulError) return err.message;
  if (isApiError(err)) {
    if (err.status === 0) return t('unreachable', { host: hostOf(server) });
    if (err.code === 'unauthenticated' || err.code === 'invalid_grant') return signedOutWords();
    if (isLimitError(err.code)) return t('limitReached', { what: err.message });
    if (err.code === 'invalid_argument') return t('cannotFetch', { why: err.message });
    if (err.code === 'file_not_found') return t('folderGone');
    if (err.code === 'too_many_requests') return t('slowDown');
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** "2 links added to Haul, into Films." */
export function addedWords(count: number, folderName: string, skipped: number): string {
  const what = count === 1 ? t('addedOne', { folder: folderName }) : t('addedMany', { n: count, folder: folderName });
  if (!skipped) return what;
  return `${what} ${skipped === 1 ? t('skippedOne') : t('skippedMany', { n: skipped })}`;
}
