import type { LookupFunction } from 'node:net';

export declare class BlockedAddressError extends Error {
  readonly address: string;
  readonly code: 'EHAULBLOCKED';
  constructor(address: string);
}
/** True for addresses on the public internet: not loopback, private, link-local (cloud metadata), multicast, reserved… */
export declare function isPublicAddress(address: string): boolean;
/** A `lookup` (dns.lookup's shape) that refuses non-public addresses unless private networks are allowed. */
export declare function guardedLookup(allowPrivate: boolean): LookupFunction;
/** Makes every TCP connection and UDP datagram of this thread go through the guard (the BitTorrent thread only). */
export declare function guardThreadSockets(): void;
