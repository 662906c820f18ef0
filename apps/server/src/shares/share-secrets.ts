/**
 * The secrets of a share link: its id, its pass code, the short-lived token a visitor gets for a correct code, and
 * signed download links of shared files. Tokens and links are bound to the current pass code, so changing the code
 * ends every visitor's access at once.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { ShareRow } from '../db/schema.js';
import { publicUrl } from '../http/public-url.js';
import { toRfc3339 } from '../lib/time.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A visitor's access after a correct pass code, before the code is asked again. */
export const PASS_CODE_TOKEN_TTL_MS = 2 * 3600_000;

function randomString(length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** 20 lowercase letters and digits (103 bits): unguessable, and unchanged by the lowercasing of share-code lookups. */
export const newShareId = () => randomString(20);

/** Four characters, as people read them out to each other; the guard makes guessing slow. */
export const newPassCode = () => randomString(4);

/** Pass codes a person may choose: 4 to 16 letters or digits, compared without case. */
export const PASS_CODE_PATTERN = /^[A-Za-z0-9]{4,16}$/;

function mac(ctx: AppContext, ...parts: (string | number)[]): string {
  return createHmac('sha256', ctx.secrets.linkKey).update(parts.join('|')).digest('base64url');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Compares a given pass code with the share's in constant time, without case. */
export function passCodeMatches(share: ShareRow, given: string): boolean {
  // Both sides are hashed first, so the comparison takes the same time whatever the lengths.
  const digest = (s: string) => createHmac('sha256', 'pass-code').update(s.toLowerCase()).digest('hex');
  return same(digest(share.pass_code), digest(given));
}

export function issuePassCodeToken(ctx: AppContext, share: ShareRow): string {
  const expires = ctx.clock.now() + PASS_CODE_TOKEN_TTL_MS;
  return `${expires}.${mac(ctx, 'share-token', share.id, share.pass_code, expires)}`;
}

export function passCodeTokenValid(ctx: AppContext, share: ShareRow, token: string): boolean {
  const m = /^(\d{1,16})\.([\w-]{20,100})$/.exec(token);
  if (!m) return false;
  const expires = Number(m[1]);
  return expires > ctx.clock.now() && same(m[2]!, mac(ctx, 'share-token', share.id, share.pass_code, expires));
}

/**
 * A download link of a file inside a share; checked again against the share and the file at every request. `payer`
 * (a signed-in visitor) is signed into it: that account's download allowance pays for the bytes, else the owner's.
 */
export function signShareContentLink(ctx: AppContext, share: ShareRow, fileId: string, payer?: string): string {
  const expires = Math.floor(ctx.clock.now() / 1000) + ctx.config.downloadLinkTtlSeconds;
  const sig = mac(ctx, 'share-content', share.id, share.pass_code, fileId, expires, ...(payer ? [payer] : []));
  return `${publicUrl(ctx)}/drive/v1/share/content/${encodeURIComponent(fileId)}?share_id=${share.id}&e=${expires}&s=${sig}${payer ? `&p=${encodeURIComponent(payer)}` : ''}`;
}

export function shareContentLinkValid(ctx: AppContext, share: ShareRow, fileId: string, q: { e?: string; s?: string; p?: string }): boolean {
  if (!q.e || !q.s || !/^\d{1,13}$/.test(q.e)) return false;
  const expires = Number(q.e);
  return expires * 1000 > ctx.clock.now() && same(q.s, mac(ctx, 'share-content', share.id, share.pass_code, fileId, expires, ...(q.p ? [q.p] : [])));
}

/**
 * A link to a rendition of a shared video (`rest`: "{mediaId}/index.m3u8"), signed like a download link and for the
 * same visitor; what the visitor may play is decided again at each request.
 */
export function signShareMediaLink(ctx: AppContext, share: ShareRow, fileId: string, rest: string, visitor?: string): { url: string; expire: string } {
  const expires = Math.floor(ctx.clock.now() / 1000) + ctx.config.downloadLinkTtlSeconds;
  const sig = mac(ctx, 'share-media', share.id, share.pass_code, fileId, expires, ...(visitor ? [visitor] : []));
  const query = `share_id=${share.id}&e=${expires}&s=${sig}${visitor ? `&p=${encodeURIComponent(visitor)}` : ''}`;
  return { url: `${publicUrl(ctx)}/drive/v1/share/media/${encodeURIComponent(fileId)}/${rest}?${query}`, expire: toRfc3339(expires * 1000) };
}

export function shareMediaLinkValid(ctx: AppContext, share: ShareRow, fileId: string, q: { e?: string; s?: string; p?: string }): boolean {
  if (!q.e || !q.s || !/^\d{1,13}$/.test(q.e)) return false;
  const expires = Number(q.e);
  return expires * 1000 > ctx.clock.now() && same(q.s, mac(ctx, 'share-media', share.id, share.pass_code, fileId, expires, ...(q.p ? [q.p] : [])));
}
