/**
 * Signed, expiring links to thumbnails and playable media: HMAC over purpose, user, the account's session epoch, file
 * and expiry, with a key of their own so such a link never doubles as a download link. Signing out everywhere bumps
 * the epoch, so every such link ends with the sessions; routes check the live file again at each request.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import { publicUrl } from '../http/public-url.js';
import { toRfc3339 } from '../lib/time.js';
import type { ThumbnailSize } from './playback.policy.js';

export type LinkPurpose = 'thumb' | 'media';
/** Who a link is signed for: the account and its session epoch. */
export interface Signer {
  userId: string;
  epoch: number;
}

export interface LinkQuery {
  u?: string;
  e?: string;
  s?: string;
}

const keys = new WeakMap<Uint8Array, Buffer>();
const THUMB_TTL_S = 24 * 3600;

function mediaKey(ctx: AppContext): Buffer {
  let key = keys.get(ctx.secrets.linkKey);
  if (!key) {
    key = createHmac('sha256', ctx.secrets.linkKey).update('haul media links').digest();
    keys.set(ctx.secrets.linkKey, key);
  }
  return key;
}

function signature(ctx: AppContext, purpose: LinkPurpose, signer: Signer, fileId: string, expires: number): string {
  return createHmac('sha256', mediaKey(ctx)).update(`${purpose}.${signer.userId}.${signer.epoch}.${fileId}.${expires}`).digest('base64url');
}

/**
 * Expiry of a new link. Thumbnail links end on a whole hour so that listings made within the same hour hand out the
 * same URL and the browser's cache keeps serving it.
 */
function expiryOf(ctx: AppContext, purpose: LinkPurpose): number {
  const now = Math.floor(ctx.clock.now() / 1000);
  if (purpose === 'media') return now + ctx.config.downloadLinkTtlSeconds;
  // Thumbnail links also live in the web app's local copy of the drive, renewed by its full sync every few hours:
  // they outlive that by a day.
  return Math.ceil((now + Math.max(ctx.config.downloadLinkTtlSeconds, THUMB_TTL_S)) / 3600) * 3600;
}

/** The `u`, `e` and `s` query parameters that let the holder read this file's media until `expires`. */
export function signQuery(ctx: AppContext, purpose: LinkPurpose, signer: Signer, fileId: string): { query: string; expires: number } {
  const expires = expiryOf(ctx, purpose);
  const sig = signature(ctx, purpose, signer, fileId, expires);
  return { query: `u=${encodeURIComponent(signer.userId)}&e=${expires}&s=${sig}`, expires };
}

/** True when the query carries a valid, unexpired signature of this purpose for this file, made since the account last signed out everywhere. */
export async function verifyQuery(ctx: AppContext, purpose: LinkPurpose, fileId: string, q: LinkQuery): Promise<boolean> {
  if (!q.u || !q.e || !q.s || !/^\d{1,12}$/.test(q.e)) return false;
  const expires = Number(q.e);
  if (expires * 1000 <= ctx.clock.now()) return false;
  const user = await ctx.db.selectFrom('users').select('session_epoch').where('id', '=', q.u).where('disabled_at', 'is', null).where('deleted_at', 'is', null).executeTakeFirst();
  if (!user) return false;
  const expected = Buffer.from(signature(ctx, purpose, { userId: q.u, epoch: user.session_epoch }, fileId, expires));
  const given = Buffer.from(q.s);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The signed thumbnail URL of a file at a size. */
export function thumbnailLink(ctx: AppContext, signer: Signer, fileId: string, size: ThumbnailSize): string {
  const { query } = signQuery(ctx, 'thumb', signer, fileId);
  return `${publicUrl(ctx)}/drive/v1/thumbnails/${encodeURIComponent(fileId)}?size=${size}&${query}`;
}

/** A signed media URL under /drive/v1/media/{fileId}/ (`rest` is "origin" or "{mediaId}/index.m3u8"). */
export function mediaLink(ctx: AppContext, signer: Signer, fileId: string, rest: string): { url: string; expire: string } {
  const { query, expires } = signQuery(ctx, 'media', signer, fileId);
  return { url: `${publicUrl(ctx)}/drive/v1/media/${encodeURIComponent(fileId)}/${rest}?${query}`, expire: toRfc3339(expires * 1000) };
}
