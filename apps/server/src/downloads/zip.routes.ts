/**
 * Zips: POST files:zip and share/zip answer a signed link; GET zip/{name} streams the zip, charging the payer's
 * download allowance up front for its size (exact when all is stored) and giving back what was not sent.
 */
import { create as contentDisposition } from 'content-disposition';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONTRACT as C, SHARE_STATUS } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { FileRow, ShareRow } from '../db/schema.js';
import { findUserById } from '../accounts/users.repository.js';
import { requireFiles, subtreeRows } from '../files/files.repository.js';
import { serve } from '../http/contract.js';
import { optionalUserId, requireAuth } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { PassCodeGuard } from '../shares/pass-code-guard.js';
import { requireInShare, visible } from '../shares/share-scope.js';
import { openShare, requireOpen } from '../shares/share-visits.service.js';
import { chargeForDownload, metered } from './download-meter.js';
import { sendGone } from './send-file.js';
import { zipItems, zipName, type ZipItem } from './zip-entries.js';
import { openZipSeal, signZipLink, zipLinkValid } from './zip-links.js';
import { zipSize, zipStream } from './zip-writer.js';

/** The caller's own items, each live: another account's id or a trashed one answers file_not_found. */
async function ownRoots(ctx: AppContext, userId: string, ids: string[]): Promise<FileRow[]> {
  const rows = await requireFiles(ctx.db, userId, ids);
  if (rows.some((r) => r.trashed)) throw notFound('One or more files are in the trash.');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].map((id) => byId.get(id)!);
}

/** Items of an open share, in the order given (the shared items themselves when none are named). */
async function shareRoots(ctx: AppContext, share: ShareRow, rootIds: string[], ids: string[] | undefined): Promise<FileRow[]> {
  const roots: FileRow[] = [];
  for (const id of [...new Set(ids?.length ? ids : rootIds)]) roots.push((await requireInShare(ctx.db, share, id, rootIds)).file);
  return roots;
}

/** What a zip of `roots` holds, read now: trashed, unfinished and (through a share) hidden rows are left out. */
async function itemsOf(ctx: AppContext, ownerId: string, roots: FileRow[], throughShare: boolean): Promise<ZipItem[]> {
  const rows = await subtreeRows(ctx.db, ownerId, roots.map((r) => r.id), true);
  return zipItems(roots, rows, throughShare ? visible : undefined);
}

/** The zip's size as a link is made (so the web app can check the allowance first); a zip of nothing is refused. */
async function sizeOf(ctx: AppContext, ownerId: string, roots: FileRow[], throughShare: boolean): Promise<string> {
  const items = await itemsOf(ctx, ownerId, roots, throughShare);
  if (!items.length) throw notFound('There is nothing to download here yet.');
  return String(zipSize(items).bytes);
}

export async function zipRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = new PassCodeGuard(ctx);

  serve(app, C.createShareZipLink, async (req) => {
    const callerId = await optionalUserId(ctx, req);
    const opened = await requireOpen(ctx, guard, { shareId: req.body.share_id, token: req.body.pass_code_token, callerId, address: req.ip }, { items: true });
    const roots = await shareRoots(ctx, opened.share, opened.rootIds, req.body.ids);
    // A signed-in visitor pays for what they download; a visitor without an account is the owner's guest.
    const payer = callerId ?? opened.share.user_id;
    const size = await sizeOf(ctx, opened.share.user_id, roots, true);
    return { ...signZipLink(ctx, { payer, share: opened.share.id, ids: roots.map((r) => r.id), name: zipName(roots) }, opened.share.pass_code), size };
  });

  serve(app, C.downloadZip, async (req, reply) => {
    const z = req.query.z ?? '';
    const seal = openZipSeal(ctx, z);
    if (!seal) return sendGone(reply);
    let ownerId = seal.payer;
    let roots: FileRow[];
    if (seal.share) {
      const opened = await openShare(ctx, guard, { shareId: seal.share, address: req.ip }, { items: false, codeProven: true });
      const share = opened.share;
      if (opened.status !== SHARE_STATUS.OK || !share || !zipLinkValid(ctx, z, req.query.s, share.pass_code)) return sendGone(reply);
      if (seal.payer !== share.user_id && !(await findUserById(ctx.db, seal.payer))) return sendGone(reply);
      ownerId = share.user_id;
      // Whatever left the share since the link was made is left out; nothing else can come in.
      const found = await Promise.all(seal.ids.map((id) => requireInShare(ctx.db, share, id, opened.rootIds).then((f) => f.file, () => null)));
      roots = found.filter((r): r is FileRow => !!r);
    } else {
      const user = await ctx.db.selectFrom('users').select('session_epoch').where('id', '=', seal.payer).where('disabled_at', 'is', null).where('deleted_at', 'is', null).executeTakeFirst();
      if (!user || !zipLinkValid(ctx, z, req.query.s, user.session_epoch)) return sendGone(reply);
      roots = await ownRoots(ctx, seal.payer, seal.ids).catch(() => []);
    }
    const items = roots.length ? await itemsOf(ctx, ownerId, roots, !!seal.share) : [];
    if (!items.length) return sendGone(reply);
    return sendZip(ctx, req, reply, items, seal.name, seal.payer);
  });

  await app.register(async (scope) => {
    requireAuth(scope, ctx, { appScope: 'pan' });
    serve(scope, C.createZipLink, async (req) => {
      const roots = await ownRoots(ctx, req.userId, req.body.ids);
      const size = await sizeOf(ctx, req.userId, roots, false);
      const user = await findUserById(ctx.db, req.userId);
      return { ...signZipLink(ctx, { payer: req.userId, share: '', ids: roots.map((r) => r.id), name: zipName(roots) }, user!.session_epoch), size };
    });
  });
}

/** Streams the zip of `items`, counting its bytes against `payerId`'s allowance as they pass. */
async function sendZip(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, items: ZipItem[], name: string, payerId: string) {
  const size = zipSize(items);
  reply
    .header('Content-Type', 'application/zip')
    .header('Content-Disposition', contentDisposition(name, { type: 'attachment' }))
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff');
  if (size.exact) reply.header('Content-Length', size.bytes);
  if (req.method === 'HEAD') return reply.send();
  const charge = await chargeForDownload(ctx, payerId, size.bytes);
  const zip = zipStream(items, (item) => ctx.blobs.read(item.hash));
  return reply.send(metered(ctx, reply, zip, charge));
}
