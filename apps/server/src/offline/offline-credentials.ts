/**
 * Sign-in and headers of a cloud download (a user name and password, a cookie, a referer): checked against a short
 * allow-list, sealed with AES-256-GCM in the task's params under SEALED_PARAM, never presented, and dropped when the
 * task completes or fails.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Secrets } from '../context.js';
import { badInput } from '../http/errors.js';

/** The params key holding the sealed headers (stripped by the tasks presenter). */
export const SEALED_PARAM = 'sealed_headers';

/** Headers a cloud download may carry; any other name is refused (no Host, no hop-by-hop, no proxy credentials). */
export const ALLOWED_HEADERS = ['authorization', 'cookie', 'referer', 'user-agent'] as const;

/** Headers that belong to the link's origin: not sent after a redirect to another origin (as browsers do). */
export const ORIGIN_BOUND_HEADERS = new Set(['authorization', 'cookie']);

export interface CredentialsInput {
  username?: string;
  password?: string;
  headers?: Record<string, string>;
}

const MAX_VALUE = 8192;

/** The headers a request carries for these credentials (lower-case names); a 400 naming what is wrong. */
export function credentialHeaders(input: CredentialsInput | undefined): Record<string, string> {
  if (!input) return {};
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(input.headers ?? {})) {
    const name = rawName.trim().toLowerCase();
    if (!(ALLOWED_HEADERS as readonly string[]).includes(name)) {
      throw badInput(`The header "${rawName.slice(0, 60)}" cannot be sent; allowed: Authorization, Cookie, Referer, User-Agent.`);
    }
    if (typeof value !== 'string' || value.length > MAX_VALUE || /[\r\n\0]/.test(value)) {
      throw badInput(`The ${rawName.slice(0, 60)} header must be one line of at most ${MAX_VALUE} characters.`);
    }
    if (value.trim()) out[name] = value.trim();
  }
  const username = input.username ?? '';
  const password = input.password ?? '';
  if (username || password) {
    // RFC 7617: the user name cannot hold a colon; neither may break the header.
    if (username.includes(':')) throw badInput('The user name cannot contain ":".');
    if (/[\r\n\0]/.test(username + password)) throw badInput('The user name and password must be one line each.');
    if (out.authorization) throw badInput('Give either a user name and password or an Authorization header, not both.');
    out.authorization = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  }
  if (out.referer && !/^https?:\/\//i.test(out.referer)) throw badInput('The Referer must be an http or https address.');
  return out;
}

function keyOf(secrets: Secrets): Buffer {
  return Buffer.from(hkdfSync('sha256', secrets.linkKey, Buffer.alloc(0), 'haul offline credentials v1', 32));
}

/** Headers → "v1.<iv>.<tag>.<ciphertext>" (base64url), readable only with this server's secrets. */
export function sealHeaders(secrets: Secrets, headers: Record<string, string>): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secrets), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(headers), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The sealed headers back; none when absent or unreadable (the origin then answers as to anyone). */
export function openHeaders(secrets: Secrets, sealed: string | undefined): Record<string, string> {
  if (!sealed) return {};
  try {
    const [v, iv, tag, body] = sealed.split('.');
    if (v !== 'v1' || !iv || !tag || body === undefined) return {};
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secrets), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const json = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(json) as Record<string, string>;
  } catch {
    return {};
  }
}

/** A task's params without what is sealed: what any answer may show. */
export function withoutSealed(params: Record<string, string>): Record<string, string> {
  if (!(SEALED_PARAM in params)) return params;
  const { [SEALED_PARAM]: _sealed, ...rest } = params;
  return rest;
}
