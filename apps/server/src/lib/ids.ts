/** Random identifiers and secrets. */
import { createHash, randomBytes } from 'node:crypto';

/** 20 url-safe characters (120 bits): letters, digits, '-' and '_', as route ids allow. */
export function newId(): string {
  return randomBytes(15).toString('base64url');
}

/** An opaque secret token (256 bits). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}
