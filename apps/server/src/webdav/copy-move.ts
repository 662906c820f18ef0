/**
 * COPY and MOVE (RFC 4918 §9.8–9.9) through the drive's own copy and move: a copy shares blobs, counts against the
 * quota and carries the dead properties of every member it copies; a move keeps the items (and so theirs). Overwrite:
 * T sends what stands at the destination to the trash first (204), F refuses with 412. MOVE leaves the source's locks
 * behind. A Destination on another origin (even another port of this host) is another server: 502.
 */
import { copyAs, moveAs } from '../files/copy-move.service.js';
import { trashFiles } from '../files/trash.service.js';
import { HttpError } from '../http/errors.js';
import { requestOrigin } from '../http/public-url.js';
import { DavError, dropLocksWithin } from './locks.js';
import { parseDestination, within } from './paths.js';
import { copyDeadProps } from './props.js';
import { checkWrite, type DavRequest } from './request.js';
import { isFolder, resolve, resolveParent } from './tree.js';

export async function copyOrMove(d: DavRequest, move: boolean): Promise<void> {
  const src = d.path;
  // The request's own origin (behind a trusted proxy, the one the client used), and the public URL the operator pinned.
  const { publicUrl, publicUrlPinned } = d.ctx.config;
  const own = [requestOrigin(d.req), publicUrlPinned && URL.canParse(publicUrl) ? new URL(publicUrl).origin : null];
  const dest = parseDestination(d.req.headers.destination as string | undefined, own);
  const overwrite = String(d.req.headers.overwrite ?? 'T').trim().toUpperCase();
  if (overwrite !== 'T' && overwrite !== 'F') throw new HttpError(400, 'invalid_argument', 'Overwrite must be T or F.');
  const depthHeader = String(d.req.headers.depth ?? 'infinity').trim().toLowerCase();
  if (depthHeader !== 'infinity' && (move || depthHeader !== '0')) throw new HttpError(400, 'invalid_argument', `Depth ${depthHeader} is not allowed here.`);

  const source = await resolve(d.ctx.db, d.userId, src.names);
  if (!source) throw new DavError(404);
  if (source.kind === 'root' || !dest.names.length) throw new DavError(403);
  if (dest.key === src.key) throw new DavError(403);
  if (within(dest.key, src.key)) throw new DavError(409);
  const parent = await resolveParent(d.ctx.db, d.userId, dest.names);
  if (!parent) throw new DavError(409);
  const existing = await resolve(d.ctx.db, d.userId, dest.names);
  if (existing && overwrite === 'F') throw new DavError(412);

  const targets = [{ key: dest.key, deep: true, membership: true }];
  if (move) targets.push({ key: src.key, deep: true, membership: true });
  await checkWrite(d, targets);

  if (existing?.kind === 'item') await trashFiles(d.ctx, d.userId, [existing.id]);
  const name = dest.names.at(-1)!;
  if (move) {
    await moveAs(d.ctx, d.userId, source.id, parent.id, name);
    await dropLocksWithin(d.ctx.db, d.userId, src.key);
  } else {
    const shallow = isFolder(source) && depthHeader === '0';
    const deep = isFolder(source) && !shallow;
    await copyAs(d.ctx, d.userId, source.id, parent.id, name, shallow, (trx, copyId) => copyDeadProps(trx, d.userId, source.id, copyId, deep, d.ctx.config.webdavPropsMaxBytes));
  }
  d.reply.status(existing ? 204 : 201).send();
}
