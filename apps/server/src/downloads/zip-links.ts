/**
 * Zip links: the selection is sealed in the link (who pays, whose files, which share, which ids, until when) and
 * signed, so no row is kept for it. A drive zip is bound to the account's session epoch (signing out everywhere ends
 * it), a share zip to the share's pass code (a new code ends it), like the single-file links.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.js';
import { publicUrl } from '../http/public-url.js';
import { toRfc3339 } from '../lib/time.js';

export interface ZipSeal {
  /** Whose allowance pays. */
  payer: string;
  /** A share's id for a visitor's zip; '' for one's own files. */
  share: string;
  ids: string[];
  /** Unix seconds. */
  expires: number;
  name: string;
}

/** `bound`: the session epoch of a drive zip's account, or the share's pass code. */
function sign(ctx: AppContext, z: string, bound: string | number): string {
  return createHmac('sha256', ctx.secrets.linkKey).update(`zip|${z}|${bound}`).digest('base64url');
}

export function signZipLink(ctx: AppContext, seal: Omit<ZipSeal, 'expires'>, bound: string | number): { url: string; name: string; expire: string } {
  const expires = Math.floor(ctx.clock.now() / 1000) + ctx.config.downloadLinkTtlSeconds;
  const z = Buffer.from(JSON.stringify([seal.payer, seal.share, seal.ids.join(','), expires, seal.name])).toString('base64url');
  const url = `${publicUrl(ctx)}/drive/v1/zip/${encodeURIComponent(seal.name)}?z=${z}&s=${sign(ctx, z, bound)}`;
  return { url, name: seal.name, expire: toRfc3339(expires * 1000) };
}

/** The sealed selection when it is well formed and unexpired; its signature is checked by `zipLinkValid`. */
export function openZipSeal(ctx: AppContext, z: string | undefined): ZipSeal | null {
  if (!z || !/^[\w-]+$/.test(z)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(z, 'base64url').toString('utf8'));
    if (!Array.isArray(v) || v.length !== 5) return null;
    const [payer, share, ids, expires, name] = v as unknown[];
    if (typeof payer !== 'string' || typeof share !== 'string' || typeof ids !== 'string' || typeof expires !== 'number' || typeof name !== 'string') return null;
    if (expires * 1000 <= ctx.clock.now() || !ids) return null;
    return { payer, share, ids: ids.split(','), expires, name };
  } catch {
    return null;
  }
}

export function zipLinkValid(ctx: AppContext, z: string, s: string | undefined, bound: string | number): boolean {
  if (!s) return false;
  const expected = Buffer.from(sign(ctx, z, bound));
  const given = Buffer.from(s);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
