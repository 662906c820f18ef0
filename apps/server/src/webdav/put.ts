/**
 * PUT: the request body streams into the blob store, hashed on the way (content already stored is kept once), and
 * is placed as a file through the upload path's own last step, so quota, names, Recent and live sync are the same.
 * A declared length past the free space or the month's upload allowance is refused before a byte is read; a body
 * without a length is cut off the moment it passes the free space. A file already there keeps its id and gets the
 * new content (files/overwrite.ts: shares, star, links and dead properties stay; the previous content goes to the
 * trash as a file of its own). `X-OC-Mtime` sets the modified time (answered `X-OC-MTime: accepted`); the SHA-1 is
 * computed on the way (checksums.ts), and an `OC-Checksum` naming another SHA-1 is a 400 with nothing placed.
 */
import { pipeline, Transform, type Readable } from 'node:stream';
import { FOLDER_KIND, LIMITS } from '@haul/shared';
import { chargeMonthly, refund, type Charge } from '../quotas/traffic.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';
import { freeSpace, requireRoom, spaceNotEnough } from '../quotas/storage-room.js';
import { placeFileIn } from '../files/files.service.js';
import { overwriteFileIn } from '../files/overwrite.js';
import { HttpError } from '../http/errors.js';
import { addBlobRefs } from '../storage/blobs.repository.js';
import { checksumMismatch, declaredSha1, keepSha1, sha1Tap } from './checksums.js';
import { DavError } from './locks.js';
import { ocMtimeOf, setModifiedTime } from './mtime.js';
import { etagOfHash } from './props.js';
import { checkWrite, type DavRequest } from './request.js';
import { childNamed, resolve, resolveParent } from './tree.js';

/** The largest body this account may send now: the size limits of its plan and its free space. */
async function ceiling(d: DavRequest): Promise<{ max: number; free: number }> {
  const user = await findUserById(d.ctx.db, d.userId);
  const planMax = user && isPremium(user, d.now) ? LIMITS.maxUploadBytes : LIMITS.freeUploadBytes;
  const free = await freeSpace(d.ctx.db, d.userId, d.now);
  return { max: planMax, free };
}

const tooLarge = () => new HttpError(413, 'file_size_too_large', 'The file is larger than this account may upload.');

/** The request body, failing once it passes `limit` bytes (413 past the plan's `max`, else 507). */
function cutOffPast(d: DavRequest, limit: number, max: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) return done(seen > max ? tooLarge() : new HttpError(507, 'file_space_not_enough', 'There is not enough storage space for this file.'));
      done(null, chunk);
    },
  });
  d.req.raw.on('error', (err) => counter.destroy(err));
  return d.req.raw.pipe(counter);
}

export async function put(d: DavRequest): Promise<void> {
  const { names, key } = d.path;
  if (!names.length) throw new DavError(405);
  const parent = await resolveParent(d.ctx.db, d.userId, names);
  if (!parent) throw new DavError(409);
  const existing = await resolve(d.ctx.db, d.userId, names);
  if (existing?.kind === 'item' && existing.row.kind === FOLDER_KIND) throw new DavError(405);
  await checkWrite(d, [{ key, membership: !existing }]);
  if (d.req.headers['content-range']) throw new HttpError(400, 'invalid_argument', 'Partial PUT (Content-Range) is not supported.');
  const mtime = ocMtimeOf(d.req.headers['x-oc-mtime']);
  const claimedSha1 = declaredSha1(d.req.headers['oc-checksum']);

  const declared = d.req.headers['content-length'] !== undefined && d.req.headers['transfer-encoding'] === undefined ? Number(d.req.headers['content-length']) : null;
  if (declared !== null && !(Number.isSafeInteger(declared) && declared >= 0)) throw new HttpError(400, 'invalid_argument', 'Content-Length is not valid.');
  const { max, free } = await ceiling(d);
  if (declared !== null && declared > max) throw tooLarge();
  if (declared !== null && declared > free) throw await spaceNotEnough(d.ctx.db, d.userId, declared, d.now);

  // The month's upload allowance is taken before the bytes come and given back if they are not kept.
  let charge: Charge = { keys: [], bytes: 0 };
  if (declared) charge = await d.ctx.db.transaction().execute((trx) => chargeMonthly(d.ctx, trx, d.userId, 'upload', declared, d.now));
  let kept = false;
  try {
    // A declared length was checked above, and the HTTP parser hands over no more than it: the body goes to the store
    // as it is. A chunked one is counted on the way and cut off past the free space.
    const tap = sha1Tap();
    const body = declared === null ? cutOffPast(d, Math.min(max, free), max) : d.req.raw;
    // pipeline passes errors on (pipe() does not): a hang-up or a body past the limit fails the store's write.
    pipeline(body, tap.stream, () => undefined);
    const blob = await d.ctx.blobs.put(tap.stream);
    if (declared !== null && blob.size !== declared) throw new HttpError(400, 'invalid_argument', 'The body ended before its Content-Length.');
    if (declared === null && blob.size > 0) charge = await d.ctx.db.transaction().execute((trx) => chargeMonthly(d.ctx, trx, d.userId, 'upload', blob.size, d.now));
    // Registered first, so bytes refused below are known to the store's collector instead of lying there unseen.
    await addBlobRefs(d.ctx.db, blob.hash, blob.size, 0, d.now);
    const sha1 = tap.hex();
    if (claimedSha1 !== undefined && claimedSha1 !== sha1) throw checksumMismatch();
    const placed = await d.ctx.db.transaction().execute(async (trx) => {
      await keepSha1(trx, blob.hash, sha1, d.now);
      // Looked up again inside the transaction: the file may have come or gone since the checks above.
      const current = await childNamed(trx, d.userId, parent.id, names.at(-1)!);
      if (current?.kind === FOLDER_KIND) throw new DavError(405);
      if (current) return { row: (await overwriteFileIn(trx, d.userId, current, { hash: blob.hash, size: blob.size, modifiedTime: mtime }, d.now)).row, replaced: true };
      await requireRoom(trx, d.userId, blob.size, d.now);
      const row = await placeFileIn(trx, d.userId, { parentId: parent.id, name: names.at(-1)!, hash: blob.hash, size: blob.size }, d.now);
      if (mtime !== undefined) await setModifiedTime(trx, d.userId, row.id, mtime, d.now);
      return { row, replaced: false };
    });
    kept = true;
    if (mtime !== undefined) d.reply.header('X-OC-MTime', 'accepted');
    const etag = etagOfHash(placed.row.hash);
    d.reply.status(placed.replaced ? 204 : 201).headers({ ETag: etag, 'OC-ETag': etag, 'OC-FileId': placed.row.id }).send();
  } finally {
    if (!kept && charge.bytes) await refund(d.ctx.db, charge).catch(() => undefined);
  }
}
