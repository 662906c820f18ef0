/**
 * Checksums sync clients compare (ownCloud/Nextcloud's `oc:checksums`, `OC-Checksum`). Haul names content by BLAKE3,
 * which none of them knows, so a WebDAV PUT also computes the SHA-1 of the bytes as they stream in (one pass, no second
 * read) and keeps it by content hash (dav_checksums). SHA-1 alone: rclone's ownCloud and Nextcloud backends both
 * compare it, and a second digest (MD5) on every upload would cost for no client. Content that came in another way
 * has no SHA-1 until a client asks for one to be computed (PATCH with X-Recalculate-Hash), so clients fall back to
 * size and time for it.
 */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';

export const OC_NS = 'http://owncloud.org/ns';

/** A pass-through that computes the SHA-1 of what goes through it. */
export function sha1Tap(): { stream: Transform; hex: () => string } {
  const h = createHash('sha1');
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      h.update(chunk);
      done(null, chunk);
    },
  });
  let hex = '';
  return { stream, hex: () => (hex ||= h.digest('hex')) };
}

/**
 * The SHA-1 an `OC-Checksum` header (or an oc:checksum value) names, lowercase: "SHA1:<hex>", possibly among other
 * types separated by spaces ("SHA1:… MD5:… ADLER32:…"). Types Haul does not compute are ignored; undefined when it
 * names no SHA-1. A SHA-1 that is not 40 hex digits is a 400.
 */
export function declaredSha1(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  for (const part of value.trim().split(/\s+/)) {
    const [type, digest] = part.split(':');
    if (type?.toUpperCase() !== 'SHA1') continue;
    if (!digest || !/^[0-9a-f]{40}$/i.test(digest)) throw new HttpError(400, 'invalid_argument', 'The SHA1 checksum is not 40 hex digits.');
    return digest.toLowerCase();
  }
  return undefined;
}

/** A 400 for content that is not what the client said it sent. */
export const checksumMismatch = () => new HttpError(400, 'invalid_argument', 'The content does not match its OC-Checksum: nothing was stored.');

/** Keeps the SHA-1 of content `hash` (a content hash names its bytes for good, so the first row stays right). */
export async function keepSha1(db: Db, hash: string, sha1: string, now: number): Promise<void> {
  await db.insertInto('dav_checksums').values({ hash, sha1, created_at: now }).onConflict((oc) => oc.column('hash').doNothing()).execute();
}

/** The SHA-1s known for the given content hashes. */
export async function sha1sOf(db: Db, hashes: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(hashes.filter(Boolean))];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('dav_checksums').select(['hash', 'sha1']).where('hash', 'in', unique.slice(i, i + 500)).execute();
    for (const r of rows) out.set(r.hash, r.sha1);
  }
  return out;
}

/** The oc:checksums element of content with SHA-1 `sha1`, in the form ownCloud answers it. */
export const checksumsXml = (sha1: string) => `<oc:checksums xmlns:oc="${OC_NS}"><oc:checksum>SHA1:${sha1}</oc:checksum></oc:checksums>`;
