/**
 * Checksums sync clients compare (ownCloud/Nextcloud's `oc:checksums`, `OC-Checksum`). Haul names content by BLAKE3,
 * which none of them knows, so a WebDAV PUT also computes the SHA-1 of the bytes as they stream in (one pass, no second
 * read) and keeps it by content hash (dav_checksums). SHA-1 alone: rclone's ownCloud and Nextcloud backends both
 * compare it, and a second digest (MD5) on every upload would cost for no client. Content that came in another way
 * has no SHA-1 until a client asks for one to be computed (PATCH with X-Recalculate-Hash), so clients fall back to
 * size and time for it.
 */
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Transform, Writable } from 'node:stream';
import type { Db } from '../db/database.js';
import { HttpError } from '../http/errors.js';
import { DavError } from './locks.js';
import type { DavRequest } from './request.js';
import { resolve } from './tree.js';

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

/**
 * PATCH with `X-Recalculate-Hash: sha1` (Nextcloud's extension, which recent rclone sends after setting a time):
 * answers the file's SHA-1 in `OC-Checksum`, computing and keeping it first when the content has none yet.
 */
export async function recalculateHash(d: DavRequest): Promise<void> {
  const wanted = String(d.req.headers['x-recalculate-hash'] ?? '').trim().toLowerCase();
  if (wanted !== 'sha1') throw new HttpError(400, 'invalid_argument', 'Only X-Recalculate-Hash: sha1 is supported.');
  const r = await resolve(d.ctx.db, d.userId, d.path.names);
  if (!r) throw new DavError(404);
  if (r.kind === 'root' || !r.row.hash) throw new DavError(405);
  let sha1 = (await sha1sOf(d.ctx.db, [r.row.hash])).get(r.row.hash);
  if (!sha1) {
    const tap = sha1Tap();
    await pipeline(d.ctx.blobs.read(r.row.hash), tap.stream, new Writable({ write: (_c, _e, done) => done() }));
    sha1 = tap.hex();
    await keepSha1(d.ctx.db, r.row.hash, sha1, d.now);
  }
  d.reply.status(200).header('OC-Checksum', `SHA1:${sha1}`).header('Content-Length', '0').send();
}
