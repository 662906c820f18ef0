/**
 * PUT: the request body streams into the blob store, hashed on the way (content already stored is kept once), and
 * is placed as a file through the upload path's own last step, so quota, names, Recent and live sync are the same.
 * A declared length past the free space or the month's upload allowance is refused before a byte is read; a body
 * without a length is cut off the moment it passes the free space. A file already there goes to the trash and the
 * new one takes its name, as the web app's "replace" does; its dead properties move to the new file (read before the
 * old one goes to the trash, which drops them).
 */
import { Transform, type Readable } from 'node:stream';
import { FOLDER_KIND, LIMITS } from '@haul/shared';
import { chargeMonthly, refund, type Charge } from '../accounts/traffic.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';
import { freeSpace, requireRoom, spaceNotEnough } from '../files/files.repository.js';
import { placeFileIn } from '../files/files.service.js';
import { HttpError } from '../http/errors.js';
import { addBlobRefs } from '../storage/blobs.repository.js';
import { DavError } from './locks.js';
import { etagOfHash } from './props.js';
import { checkWrite, type DavRequest } from './request.js';
import { resolve, resolveParent } from './tree.js';

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
    const blob = await d.ctx.blobs.put(declared === null ? cutOffPast(d, Math.min(max, free), max) : d.req.raw);
    if (declared !== null && blob.size !== declared) throw new HttpError(400, 'invalid_argument', 'The body ended before its Content-Length.');
    if (declared === null && blob.size > 0) charge = await d.ctx.db.transaction().execute((trx) => chargeMonthly(d.ctx, trx, d.userId, 'upload', blob.size, d.now));
    // Registered first, so bytes refused below are known to the store's collector instead of lying there unseen.
    await addBlobRefs(d.ctx.db, blob.hash, blob.size, 0, d.now);
    const placed = await d.ctx.db.transaction().execute(async (trx) => {
      await requireRoom(trx, d.userId, blob.size, d.now);
      const props = existing?.kind === 'item' ? await trx.selectFrom('dav_props').selectAll().where('file_id', '=', existing.id).where('user_id', '=', d.userId).execute() : [];
      const row = await placeFileIn(trx, d.userId, { parentId: parent.id, name: names.at(-1)!, hash: blob.hash, size: blob.size, replace: true }, d.now);
      for (let i = 0; i < props.length; i += 100) await trx.insertInto('dav_props').values(props.slice(i, i + 100).map((p) => ({ ...p, file_id: row.id }))).execute();
      return row;
    });
    kept = true;
    d.reply.status(existing ? 204 : 201).header('ETag', etagOfHash(placed.hash)).send();
  } finally {
    if (!kept && charge.bytes) await refund(d.ctx.db, charge).catch(() => undefined);
  }
}
