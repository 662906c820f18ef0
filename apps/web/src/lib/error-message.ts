/**
 * Words for a failed call in the reader's language (seed 001 §8): the first message of the error's details written in
 * that language, else the client's translation of the error, else the server's error_description, else a generic
 * sentence ('error' before any language has loaded). The server writes its descriptions in English, so for a reader
 * of English the description is a message in their language, and the most specific one: it comes right after the
 * details' messages.
 */
import i18n from 'i18next';
import type { ErrorBody } from '@haul/shared';
import { describeError, NAME_PROBLEM_TEXT, parseLimitDetails } from '@haul/shared/plain';
import { isApiError, LOCAL_ERROR } from './api-error';
import { LOCAL_TEXT, limitText, NAME_TEXT, REASON_TEXT, waitText } from './error-texts';
import { matchLocale } from './locale';

/** The parts of the error object the words come from; all optional, as a proxy or a probe may send less. */
export type ErrorFields = Partial<Pick<ErrorBody, 'error' | 'error_description' | 'details'>>;

/**
 * Names the server gives to many situations, told apart only by the error_description (which field is wrong, which
 * condition is unmet, what is not allowed): those words say more than a translation of the name, so they come first,
 * and the name's text serves an error without a description. Situations the client can tell apart (a name problem,
 * a reason in the details) still get the client's words.
 */
const SAID_BY_SERVER: ReadonlySet<string> = new Set(['invalid_argument', 'failed_precondition', 'permission_denied']);

const GENERIC = 'error';

/** The language of the server's error_description. */
const SERVER_LOCALE = 'en-US';

const own = <T extends object>(table: T, key: string): key is Extract<keyof T, string> => Object.hasOwn(table, key);

/** A text of the loaded languages by a key built at run time, or null. */
const existing = (key: string): string | null => (i18n.exists(key) ? i18n.t(key) : null);

/** The reader's language as one of ours. */
const readerLocale = () => matchLocale(i18n.resolvedLanguage || i18n.language || 'en-US') ?? 'en-US';

const objects = (details: unknown): Record<string, unknown>[] =>
  Array.isArray(details) ? details.filter((d): d is Record<string, unknown> => !!d && typeof d === 'object') : [];

/** (a) The first detail message in the reader's language (a LocalizedMessage: locale and message). */
function localizedMessage(details: unknown): string | null {
  const reader = readerLocale();
  const found = objects(details).find(
    (d) => typeof d.locale === 'string' && typeof d.message === 'string' && d.message !== '' && matchLocale(d.locale) === reader,
  );
  return found ? (found.message as string) : null;
}

/** A name problem the server described in the shared rule's own words (NAME_PROBLEM_TEXT). */
const nameProblemOf = (description: string) => Object.entries(NAME_PROBLEM_TEXT).find(([, text]) => text === description)?.[0] ?? null;

/** What the details (or a limit's JSON description) tell the client, in its own words. */
function fromDetails(name: string, description: string, details: Record<string, unknown>[]): string | null {
  const language = readerLocale();
  const limit = parseLimitDetails(description);
  const limitWords = limit && limitText(name, limit, language);
  if (limitWords) return limitWords;
  const wait = details.map((d) => d.retry_after_seconds).find((s): s is number => typeof s === 'number' && s > 0);
  if (name === 'too_many_requests' && wait !== undefined) return waitText(wait, language);
  const reason = details.map((d) => d.reason).find((r): r is string => typeof r === 'string' && own(REASON_TEXT, r));
  const reasonWords = reason ? REASON_TEXT[reason]!() : null;
  if (reasonWords) return reasonWords;
  const share = details.map((d) => d.share_status).find((s): s is string => typeof s === 'string');
  const shareWords = share ? existing(`publicShare.status.${share}`) : null;
  if (shareWords) return shareWords;
  const problem = name === 'invalid_argument' ? nameProblemOf(description) : null;
  return problem ? existing(`names.${problem}`) : null;
}

/** (b) The client's words for the error: what its details say, else the text of its name. */
function translated(body: ErrorFields): string | null {
  const name = body.error ?? '';
  const description = body.error_description ?? '';
  const specific = fromDetails(name, description, objects(body.details));
  if (specific) return specific;
  if (SAID_BY_SERVER.has(name) && description) return null;
  return own(NAME_TEXT, name) ? NAME_TEXT[name]() : null;
}

/** The words for an error object, in the order of seed 001 §8. */
export function errorText(body: ErrorFields): string {
  const raw = body.error_description ?? '';
  // A limit's description is JSON details, not words: its numbers go into the client's text.
  const words = parseLimitDetails(raw) ? null : raw || null;
  return (
    localizedMessage(body.details) ??
    (readerLocale() === SERVER_LOCALE ? words : null) ??
    translated(body) ??
    (raw ? describeError(raw) : null) ??
    LOCAL_TEXT.unknown() ??
    GENERIC
  );
}

/** No answer at all: offline when the browser knows it, else the server could not be reached. */
const unreachable = () => (typeof navigator !== 'undefined' && navigator.onLine === false ? LOCAL_TEXT.offline() : LOCAL_TEXT.network());

/** fetch's own failure before any answer: a TypeError, worded differently by each browser. */
const isFetchFailure = (err: unknown) => err instanceof TypeError && /fetch|network|load failed/i.test(err.message);

/** Words for anything a call or a change threw; '' for an abort, which the person asked for. */
export function errorMessage(err: unknown): string {
  const message = (err as Error | null)?.message;
  if ((err as Error | null)?.name === 'AbortError') return '';
  if (isApiError(err)) {
    if (err.body?.error) return errorText(err.body);
    if (err.code === LOCAL_ERROR) {
      // An answer without the error object is a proxy in front of the server, or the server away.
      const words = err.status === 0 ? unreachable() : [502, 503, 504].includes(err.status) ? NAME_TEXT.unavailable() : LOCAL_TEXT.status(err.status);
      return words || message || GENERIC;
    }
    // A bare 401, or a step the client itself gave up with its own words (a cancelled prompt).
    return (own(NAME_TEXT, err.code) ? NAME_TEXT[err.code]() : null) || message || LOCAL_TEXT.unknown() || GENERIC;
  }
  if (isFetchFailure(err)) return unreachable() || message || GENERIC;
  return message || LOCAL_TEXT.unknown() || GENERIC;
}
