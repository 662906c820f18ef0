/** Nextcloud's X-Recalculate-Hash: a file's SHA-1 on demand, for sync clients that compare checksums. */
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { HttpError } from '../http/errors.js';
import { keepSha1, sha1sOf, sha1Tap } from './checksums.js';
import { DavError } from './locks.js';
import type { DavRequest } from './request.js';
import { resolve } from './tree.js';

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
