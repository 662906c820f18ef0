/**
 * Accounts made by a provider sign-in have no password. Their hash is an argon2id hash of a random secret nobody
 * knows, so a password sign-in against them costs the same time as any other and always fails (no timing tells
 * them apart); a fixed marker salt says "no password set". Setting a password (a forgotten-password code) hashes
 * with a random salt, and the marker is gone.
 */
import { Algorithm, hash } from '@node-rs/argon2';
import { newSecret } from '../lib/ids.js';
import { inHashSlot } from '../accounts/passwords.js';

const MARKER = Buffer.from('haul-no-password');
const MARKER_B64 = MARKER.toString('base64').replace(/=+$/, '');

/** The hash stored for an account without a password. */
export function passwordlessHash(): Promise<string> {
  return inHashSlot(() => hash(newSecret(), { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1, salt: MARKER }));
}

/** Whether the account has a password of its own ('' is a deleted account's). */
export function hasPassword(passwordHash: string): boolean {
  return passwordHash !== '' && passwordHash.split('$')[4] !== MARKER_B64;
}
