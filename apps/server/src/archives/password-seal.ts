/**
 * An archive password kept for a task that runs later or in another process: sealed with AES-256-GCM under a key
 * derived from the server's secret, never in clear, and dropped when the task ends.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

function keyOf(secret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'haul archive password', 32));
}

/** '' stays '' (no password). */
export function sealPassword(secret: Uint8Array, password: string): string {
  if (!password) return '';
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([c.update(password, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64');
}

export function openPassword(secret: Uint8Array, sealed: string): string {
  if (!sealed) return '';
  const raw = Buffer.from(sealed, 'base64');
  const d = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
  d.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
}
