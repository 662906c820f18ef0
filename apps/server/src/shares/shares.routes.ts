/** /drive/v1/share…: the owner's share links (signed in) and what a link shows anyone who has it (no account). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTRACT as C, LIMITS, SHARE_STATUS } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { findUserById } from '../accounts/users.repository.js';
import { sendFileBytes, sendGone } from '../downloads/send-file.js';
import { parseOrder } from '../files/list-filters.js';
import { optionalUserId, requireAuth } from '../http/auth.js';
import { badInput } from '../http/errors.js';
import { filterList, filterOperator, readFilters } from '../http/filters.js';
import { PassCodeGuard } from './pass-code-guard.js';
import { shareContentLinkValid } from './share-secrets.js';
import { requireInShare } from './share-scope.js';
import { openShare, restoreFromShare, shareFileInfo, viewShare, type ShareAccess } from './share-visits.service.js';
import { cancelShares, createShare, listShares, shareStatusOfFiles, updateShare } from './shares.service.js';
import { findShare, shareNotFound } from './shares.repository.js';
import { limitedCodeLookup } from './share-code-lookups.js';
import { shareIdByPhrase } from './share-phrases.js';

/** The items of a share request: file_ids and the seeds' ids together, each once, in the order given. */
function shareItems(body: { file_ids?: string[]; ids?: string[] }): string[] {
  const items = [...new Set([...(body.file_ids ?? []), ...(body.ids ?? [])])];
  if (!items.length) throw badInput('Name the items to share in file_ids (or ids).');
  if (items.length > LIMITS.batchMaxIds) throw badInput(`At most ${LIMITS.batchMaxIds} items can be shared at once.`);
  return items;
}

/** `filters={"id":{"in":"a,b"}}` of the share list: at most 100 ids. */
function idFilter(raw: string | undefined): string[] | undefined {
  const ops = readFilters(raw, ['id']).id;
  return ops ? filterList(filterOperator(ops, 'id', ['in'])[1], 'id', 100) : undefined;
}

export async function sharesRoutes(app: FastifyInstance, ctx: AppContext, onMediaJob: () => void = () => {}): Promise<void> {
  const guard = new PassCodeGuard(ctx);
  const access = async (
    req: FastifyRequest,
    q: { share_id: string; pass_code?: string; pass_code_token?: string },
  ): Promise<ShareAccess> => ({
    shareId: q.share_id,
    passCode: q.pass_code,
    token: q.pass_code_token,
    callerId: await optionalUserId(ctx, req),
    address: req.ip,
  });

  // Open to anyone with the link.
  serve(app, C.viewShare, async (req) =>
    viewShare(ctx, guard, await access(req, req.query), {
      parentId: req.query.parent_id || undefined,
      pageToken: req.query.page_token || undefined,
      limit: req.query.limit ?? LIMITS.listDefault,
      order: parseOrder(req.query.order),
    }),
  );

  serve(app, C.shareFileInfo, async (req) => ({
    share_status: SHARE_STATUS.OK,
    // Only what the query names: a pass code is traded for a token at GET share.
    file_info: await shareFileInfo(ctx, guard, await access(req, { share_id: req.query.share_id, pass_code_token: req.query.pass_code_token }), req.query.file_id, {
      play: req.query.usage === 'PLAY',
      onQueued: onMediaJob,
    }),
  }));

  serve(app, C.shareContent, async (req, reply) => {
    if (!req.query.share_id) return sendGone(reply);
    // The signature is bound to the pass code, so the link is its proof; the share must still be open.
    const opened = await openShare(ctx, guard, { shareId: req.query.share_id, address: req.ip }, { items: false, codeProven: true });
    const share = opened.share;
    if (opened.status !== SHARE_STATUS.OK || !share || !shareContentLinkValid(ctx, share, req.params.id, req.query)) return sendGone(reply);
    const found = await requireInShare(ctx.db, share, req.params.id, opened.rootIds).catch(() => null);
    if (!found || !found.file.hash) return sendGone(reply);
    // A signed-in visitor pays for what they download; a visitor without an account is the owner's guest.
    const payer = req.query.p || share.user_id;
    if (payer !== share.user_id && !(await findUserById(ctx.db, payer))) return sendGone(reply);
    return sendFileBytes(ctx, req, reply, found.file, payer);
  });

  // A share code typed or pasted by a person: the share id itself, or a link that ends with it.
  serve(app, C.resolveShareCode, async (req) => {
    const code = String(req.query.code ?? '')
      .trim()
      .toLowerCase();
    const id = /\/s\/([a-z0-9]+)/.exec(code)?.[1] ?? code;
    const found = await limitedCodeLookup(ctx, req.ip, async () => {
      const share = /^[a-z0-9]{1,64}$/.test(id) ? await findShare(ctx.db, id) : undefined;
      if (share && share.status !== SHARE_STATUS.DELETED) return share.id;
      // Not an id: words its owner chose for it.
      return shareIdByPhrase(ctx.db, code);
    });
    if (!found) throw shareNotFound();
    return { data: [{ content: found }] };
  });

  // The owner's calls, and saving into one's own drive.
  await app.register(async (scope) => {
    requireAuth(scope, ctx, { appScope: 'pan' });

    serve(scope, C.createShare, async (req) =>
      createShare(ctx, req.userId, {
        fileIds: shareItems(req.body),
        kind: req.body.share_to ?? 'encryptedlink',
        expirationDays: req.body.expiration_days ?? 7,
        passCode: req.body.pass_code,
        title: req.body.title,
        phrase: req.body.phrase,
        restoreLimit: req.body.restore_limit,
      }),
    );

    serve(scope, C.updateShare, async (req) =>
      updateShare(ctx, req.userId, {
        shareId: req.body.share_id,
        kind: req.body.share_to,
        expirationDays: req.body.expiration_days,
        passCode: req.body.pass_code,
        title: req.body.title,
        phrase: req.body.phrase,
        restoreLimit: req.body.restore_limit,
      }),
    );

    serve(scope, C.listShares, async (req) =>
      listShares(ctx, req.userId, {
        limit: req.query.limit ?? 100,
        pageToken: req.query.page_token || undefined,
        ids: idFilter(req.query.filters),
      }),
    );

    serve(scope, C.cancelShares, async (req) => {
      await cancelShares(ctx, req.userId, req.body.ids);
      return {};
    });

    serve(scope, C.shareStatusOfFiles, async (req) => shareStatusOfFiles(ctx, req.userId, req.body.file_ids));

    serve(scope, C.restoreShare, async (req) => ({
      share_status: SHARE_STATUS.OK,
      restore_status: 'RESTORE_COMPLETE' as const,
      ...(await restoreFromShare(
        ctx,
        guard,
        { shareId: req.body.share_id, token: req.body.pass_code_token, callerId: req.userId, address: req.ip },
        { fileIds: req.body.file_ids, parentId: req.body.parent_id ?? '' },
      )),
    }));
  });
}
