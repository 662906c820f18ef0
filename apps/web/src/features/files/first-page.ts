/**
 * The open folder's first page, asked for by a script in index.html before the app's own scripts have loaded (on a
 * cold start that request would otherwise wait for the whole boot). The app takes it in place of the same request of
 * its own, at most once, and only when it is exactly that request: same address, same token (so never another
 * account's rows), asked for less than FIRST_PAGE_MAX_AGE_MS ago. Anything else, or an early request that failed,
 * and the app asks as usual.
 */
import type { FileList } from '@haul/shared';

/** What the early script leaves on `window.__haulFirstPage`. */
export interface EarlyPage {
  /** The request's path and query, as the API client would write them. */
  url: string;
  /** The access token it carried. */
  token: string;
  /** When it was sent (epoch ms). */
  at: number;
  /** The parsed answer; null when the request failed or the server refused it. */
  page: Promise<FileList | null>;
  /** The folder asked for ('' for the root). */
  folder: string;
}

declare global {
  interface Window {
    __haulFirstPage?: EarlyPage;
    /** Set once the app has shown its own list (or another screen): the first paint is no longer wanted. */
    __haulFirstPaintDone?: boolean;
    /** The preloaded scripts whose load event has fired (index.html's first script listens from the start). */
    __haulArrived?: Set<string>;
  }
}

/** An answer older than this is asked for again: rows are never shown staler than a normal start would show them. */
export const FIRST_PAGE_MAX_AGE_MS = 10_000;

/**
 * The early answer for the request `url` sent with `token`, or null. It is given out once; one sent with another
 * token, or too long ago, is dropped; one for another address is left for the call it was made for.
 */
export function takeFirstPage(url: string, token: string | null, now = Date.now()): Promise<FileList | null> | null {
  const early = typeof window === 'undefined' ? undefined : window.__haulFirstPage;
  if (!early) return null;
  if (!token || early.token !== token || now - early.at > FIRST_PAGE_MAX_AGE_MS) {
    delete window.__haulFirstPage;
    return null;
  }
  if (early.url !== url) return null;
  delete window.__haulFirstPage;
  return early.page;
}

/** Settles like `p`, or rejects with the signal's reason as soon as it aborts. */
export function unlessAborted<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
