/**
 * Offline download is not an open proxy: only http(s) to public addresses. The guard itself is address-guard.mjs,
 * shared with the BitTorrent thread; every connection, the first and each redirect's, resolves the host itself and
 * connects only to an address it checked.
 */
export { BlockedAddressError, guardedLookup, isPublicAddress } from './address-guard.mjs';

/** Parses a link the user gave; only http and https are fetched over HTTP. */
export function parseHttpLink(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}
