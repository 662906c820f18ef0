/**
 * Opaque keyset page tokens: the sort key of the last row, bound to the listing it came from. A token comes back from
 * the client, so every value in it is checked against the type its column has before it reaches a query.
 */
import { badInput } from '../http/errors.js';

/** What one cursor value must be: a number (times, sizes) or a string (names, ids). */
export type CursorType = 'number' | 'string';

const invalid = () => badInput('page_token is not valid for this listing.');

export function encodePageToken(listing: string, values: unknown[]): string {
  return Buffer.from(JSON.stringify({ k: listing, v: values })).toString('base64url');
}

function fits(value: unknown, type: CursorType): boolean {
  if (type === 'number') return typeof value === 'number' && Number.isSafeInteger(value);
  return typeof value === 'string' && value.length <= 1024;
}

/** The values of a token made by encodePageToken for the same listing, each of the given type, or a 400. */
export function decodePageToken(token: string, listing: string, types: CursorType[]): unknown[] {
  let v: { k?: unknown; v?: unknown };
  try {
    v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!v || typeof v !== 'object' || v.k !== listing || !Array.isArray(v.v) || v.v.length !== types.length) throw invalid();
  const values = v.v as unknown[];
  if (!types.every((t, i) => fits(values[i], t))) throw invalid();
  return values;
}

/** A (time, id) cursor for newest-first listings. */
export function decodeTimeCursor(token: string, listing: string): [number, string] {
  return decodePageToken(token, listing, ['number', 'string']) as [number, string];
}
