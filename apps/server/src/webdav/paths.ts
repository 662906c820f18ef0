/**
 * Request paths under /dav/ into names, once: the raw path is split on "/" first and each segment percent-decoded
 * after, so an encoded slash stays inside one name (and the name rules refuse it); "." and ".." (encoded or not),
 * NUL and every other name the drive refuses are a 400 before any lookup; empty segments ("//", a trailing slash)
 * are skipped. Names come out in NFC, as the drive stores them. Nothing here can name anything but a path below the
 * account's own top folder.
 */
import { checkName, NAME_PROBLEM_TEXT } from '@haul/shared';
import { HttpError } from '../http/errors.js';

export const DAV_PREFIX = '/dav';

/** A path inside the account's drive: its names from the top ([] for the top itself). */
export interface DavPath {
  names: string[];
  /** "/a/b" ("" for the top): how locks name it. */
  key: string;
}

const bad = (why: string) => new HttpError(400, 'invalid_argument', `The path is not valid: ${why}`);

/** The names of a raw request target (`/dav/a%20b/c?x`), or a 400. */
export function parseDavPath(rawTarget: string): DavPath {
  const path = rawTarget.split('?')[0]!;
  // A fragment is never part of a request target; cutting it off would act on what the client did not name.
  if (path.includes('#')) throw bad('it holds a fragment ("#").');
  if (path !== DAV_PREFIX && !path.startsWith(`${DAV_PREFIX}/`)) throw bad('it is not under /dav/.');
  const names: string[] = [];
  for (const raw of path.slice(DAV_PREFIX.length).split('/')) {
    if (raw === '') continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      throw bad('it is not valid percent-encoding.');
    }
    if (decoded === '.' || decoded === '..') throw bad('"." and ".." are not names.');
    const { name, problem } = checkName(decoded);
    if (problem) throw bad(NAME_PROBLEM_TEXT[problem]);
    names.push(name);
  }
  return { names, key: keyOf(names) };
}

export const keyOf = (names: string[]) => (names.length ? `/${names.join('/')}` : '');

/**
 * The path named by a Destination header (an absolute URL or an absolute path), or a 400. An absolute URL must name
 * this server as the request reached it, scheme, host and port alike (one of `ownOrigins`): another port of the same
 * host is another server, and RFC 4918 (§9.8.4, §9.9.4) answers 502 for a destination on another server.
 */
export function parseDestination(header: string | undefined, ownOrigins: (string | null)[]): DavPath {
  if (!header) throw bad('the Destination header is missing.');
  let target = header;
  if (/^[a-z][a-z0-9+.-]*:/i.test(header)) {
    let url: URL;
    try {
      url = new URL(header);
    } catch {
      throw bad('the Destination is not a URL.');
    }
    // URL's origin spells default ports, case and IPv6 literals one way, as requestOrigin does.
    if (!ownOrigins.includes(url.origin)) throw new HttpError(502, 'invalid_argument', 'The Destination is on another server.');
    target = url.pathname;
  }
  return parseDavPath(target);
}

/** Whether `inner` is `outer` or below it. */
export const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);

/** The href of a path in answers: each name percent-encoded, a folder with its trailing slash. */
export function hrefOf(names: string[], folder: boolean): string {
  const tail = names.map((n) => encodeURIComponent(n)).join('/');
  return `${DAV_PREFIX}/${tail}${folder && tail ? '/' : ''}`;
}
