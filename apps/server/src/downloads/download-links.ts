/**
 * Signed, expiring download links: whoever holds one may read that file until it expires, leaves the drive, or the
 * account signs out everywhere (the signature covers the account's session epoch, which that bumps).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import { publicUrl } from '../http/public-url.js';

function signature(ctx: AppContext, userId: string, epoch: number, fileId: string, expires: number): string {
  return createHmac('sha256', ctx.secrets.linkKey).update(`${userId}.${epoch}.${fileId}.${expires}`).digest('base64url');
}

export function signDownloadLink(ctx: AppContext, caller: { userId: string; epoch: number }, fileId: string): string {
  const { userId } = caller;
  const expires = Math.floor(ctx.clock.now() / 1000) + ctx.config.downloadLinkTtlSeconds;
  const sig = signature(ctx, userId, caller.epoch, fileId, expires);
  return `${publicUrl(ctx)}/drive/v1/content/${encodeURIComponent(fileId)}?u=${encodeURIComponent(userId)}&e=${expires}&s=${sig}`;
}

/** True when the query carries a valid, unexpired signature for this file, made since the account last signed out everywhere. */
export async function verifyDownloadLink(ctx: AppContext, fileId: string, q: { u?: string; e?: string; s?: string }): Promise<boolean> {
  if (typeof q.u !== 'string' || typeof q.e !== 'string' || typeof q.s !== 'string' || !/^\d{1,12}$/.test(q.e)) return false;
  const expires = Number(q.e);
  if (expires * 1000 <= ctx.clock.now()) return false;
  const user = await ctx.db.selectFrom('users').select('session_epoch').where('id', '=', q.u).where('disabled_at', 'is', null).where('deleted_at', 'is', null).executeTakeFirst();
  if (!user) return false;
  const expected = Buffer.from(signature(ctx, q.u, user.session_epoch, fileId, expires));
  const given = Buffer.from(q.s);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
