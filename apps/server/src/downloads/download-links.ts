/** Signed, expiring download links: whoever holds one may read that file until it expires or leaves the drive. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';

function signature(ctx: AppContext, userId: string, fileId: string, expires: number): string {
  return createHmac('sha256', ctx.secrets.linkKey).update(`${userId}.${fileId}.${expires}`).digest('base64url');
}

export function signDownloadLink(ctx: AppContext, userId: string, fileId: string): string {
  const expires = Math.floor(ctx.clock.now() / 1000) + ctx.config.downloadLinkTtlSeconds;
  const sig = signature(ctx, userId, fileId, expires);
  return `${ctx.config.publicUrl}/drive/v1/content/${encodeURIComponent(fileId)}?u=${encodeURIComponent(userId)}&e=${expires}&s=${sig}`;
}

/** True when the query carries a valid, unexpired signature for this file. */
export function verifyDownloadLink(ctx: AppContext, fileId: string, q: { u?: string; e?: string; s?: string }): boolean {
  if (!q.u || !q.e || !q.s || !/^\d+$/.test(q.e)) return false;
  const expires = Number(q.e);
  if (expires * 1000 <= ctx.clock.now()) return false;
  const expected = Buffer.from(signature(ctx, q.u, fileId, expires));
  const given = Buffer.from(q.s);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
