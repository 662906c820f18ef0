/** Opaque keyset page tokens: the sort key of the last row, bound to the listing it came from. */
import { badInput } from '../http/errors.js';

export function encodePageToken(listing: string, values: unknown[]): string {
  return Buffer.from(JSON.stringify({ k: listing, v: values })).toString('base64url');
}

/** The values of a token made by encodePageToken for the same listing, or a 400. */
export function decodePageToken(token: string, listing: string, arity: number): unknown[] {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (v && v.k === listing && Array.isArray(v.v) && v.v.length === arity) return v.v;
  } catch {
    /* fall through */
  }
  throw badInput('page_token is not valid for this listing.');
}

/** A (time, id) cursor for newest-first listings. */
export function decodeTimeCursor(token: string, listing: string): [number, string] {
  const [t, id] = decodePageToken(token, listing, 2);
  if (typeof t !== 'number' || typeof id !== 'string') throw badInput('page_token is not valid for this listing.');
  return [t, id];
}
