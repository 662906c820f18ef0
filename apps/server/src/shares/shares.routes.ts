/** /drive/v1/share…: the owner's share links (signed in) and what a link shows anyone who has it (no account). */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LIMITS, SHARE_STATUS } from '@haul/shared';
import type { AppContext } from '../context.js';
import { sendFileBytes, sendGone } from '../downloads/content.routes.js';
import { parseOrder } from '../files/list-filters.js';
import { optionalUserId, requireAuth } from '../http/auth.js';
import { badInput } from '../http/errors.js';
import { PassCodeGuard } from './pass-code-guard.js';
import { shareContentLinkValid } from './share-secrets.js';
import { requireInShare } from './share-scope.js';
import { openShare, restoreFromShare, shareFileInfo, viewShare, type ShareAccess } from './share-visits.service.js';
import { cancelShares, createShare, listShares, shareStatusOfFiles, updateShare } from './shares.service.js';
import { findShare, shareNotFound } from './shares.repository.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const Ids = Type.Array(Id, { minItems: 1, maxItems: LIMITS.batchMaxIds });
const ShareId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9]+$' });
const PassCode = Type.String({ maxLength: 64 });
const Token = Type.String({ maxLength: 200 });
const CreateBody = Type.Object({
  file_ids: Ids,
  share_to: Type.String({ maxLength: 40 }),
  expiration_days: Type.Integer(),
  pass_code: Type.Optional(PassCode),
  title: Type.Optional(Type.String({ maxLength: 1024 })),
});
const PatchBody = Type.Object({
  share_id: ShareId,
  share_to: Type.Optional(Type.String({ maxLength: 40 })),
  expiration_days: Type.Optional(Type.Integer()),
  pass_code: Type.Optional(PassCode),
  title: Type.Optional(Type.String({ maxLength: 1024 })),
});
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  page_token: Type.Optional(Type.String({ maxLength: 500 })),
  filters: Type.Optional(Type.String({ maxLength: 10_000 })),
});
const ViewQuery = Type.Object({
  share_id: ShareId,
  pass_code: Type.Optional(PassCode),
  pass_code_token: Type.Optional(Token),
  parent_id: Type.Optional(Type.String({ maxLength: 64 })),
  page_token: Type.Optional(Type.String({ maxLength: 2000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax })),
  order: Type.Optional(Type.String({ maxLength: 40 })),
  thumbnail_size: Type.Optional(Type.String({ maxLength: 40 })),
});
const FileInfoQuery = Type.Object({ share_id: ShareId, file_id: Id, pass_code_token: Type.Optional(Token) });
/** A share download link: the share, its expiry and its signature (share-secrets). */
const ShareContentQuery = Type.Object({
  share_id: Type.Optional(ShareId),
  e: Type.Optional(Type.String({ maxLength: 20 })),
  s: Type.Optional(Type.String({ maxLength: 200 })),
});
const RestoreBody = Type.Object({
  share_id: ShareId,
  pass_code_token: Type.Optional(Token),
  file_ids: Type.Optional(Ids),
  parent_id: Type.Optional(Type.String({ maxLength: 64 })),
});

/** `filters={"id":{"in":"a,b"}}` of the share list: at most 100 ids. */
function idFilter(raw: string | undefined): string[] | undefined {
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badInput('filters must be JSON.');
  }
  const inList = (parsed as { id?: { in?: unknown } })?.id?.in;
  if (inList === undefined) return undefined;
  const ids = (Array.isArray(inList) ? inList.map(String) : String(inList).split(',')).map((s) => s.trim()).filter(Boolean);
  if (ids.length > 100) throw badInput('filters.id lists at most 100 share ids.');
  return ids;
}

export async function sharesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
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
  app.get<{ Querystring: Static<typeof ViewQuery> }>('/drive/v1/share', { schema: { querystring: ViewQuery } }, async (req) =>
    viewShare(ctx, guard, await access(req, req.query), {
      parentId: req.query.parent_id || undefined,
      pageToken: req.query.page_token || undefined,
      limit: req.query.limit ?? LIMITS.listDefault,
      order: parseOrder(req.query.order),
    }),
  );

  app.get<{ Querystring: Static<typeof FileInfoQuery> }>(
    '/drive/v1/share/file_info',
    { schema: { querystring: FileInfoQuery } },
    async (req) => ({
      share_status: SHARE_STATUS.OK,
      file_info: await shareFileInfo(ctx, guard, await access(req, req.query), req.query.file_id),
    }),
  );

  app.get<{ Params: { id: string }; Querystring: Static<typeof ShareContentQuery> }>(
    '/drive/v1/share/content/:id',
    { schema: { querystring: ShareContentQuery } },
    async (req, reply) => {
      if (!req.query.share_id) return sendGone(reply);
      // The signature is bound to the pass code, so the link is its proof; the share must still be open.
      const opened = await openShare(ctx, guard, { shareId: req.query.share_id, address: req.ip }, { items: false, codeProven: true });
      const share = opened.share;
      if (opened.status !== SHARE_STATUS.OK || !share || !shareContentLinkValid(ctx, share, req.params.id, req.query))
        return sendGone(reply);
      const found = await requireInShare(ctx.db, share, req.params.id, opened.rootIds).catch(() => null);
      if (!found || !found.file.hash) return sendGone(reply);
      return sendFileBytes(ctx, req, reply, found.file);
    },
  );

  // A share code typed or pasted by a person: the share id itself, or a link that ends with it.
  app.get<{ Querystring: { code?: string } }>('/drive/v1/share/code', async (req) => {
    const code = String(req.query.code ?? '')
      .trim()
      .toLowerCase();
    const id = /\/s\/([a-z0-9]+)/.exec(code)?.[1] ?? code;
    if (!/^[a-z0-9]{1,64}$/.test(id)) throw shareNotFound();
    const share = await findShare(ctx.db, id);
    if (!share || share.status === SHARE_STATUS.DELETED) throw shareNotFound();
    return { data: [{ content: share.id }] };
  });

  // The owner's calls, and saving into one's own drive.
  await app.register(async (scope) => {
    requireAuth(scope, ctx);

    scope.post<{ Body: Static<typeof CreateBody> }>('/drive/v1/share', { schema: { body: CreateBody } }, async (req) =>
      createShare(ctx, req.userId, {
        fileIds: req.body.file_ids,
        kind: req.body.share_to,
        expirationDays: req.body.expiration_days,
        passCode: req.body.pass_code,
        title: req.body.title,
      }),
    );

    scope.patch<{ Body: Static<typeof PatchBody> }>('/drive/v1/share', { schema: { body: PatchBody } }, async (req) =>
      updateShare(ctx, req.userId, {
        shareId: req.body.share_id,
        kind: req.body.share_to,
        expirationDays: req.body.expiration_days,
        passCode: req.body.pass_code,
        title: req.body.title,
      }),
    );

    scope.get<{ Querystring: Static<typeof ListQuery> }>('/drive/v1/share/list', { schema: { querystring: ListQuery } }, async (req) =>
      listShares(ctx, req.userId, {
        limit: req.query.limit ?? 100,
        pageToken: req.query.page_token || undefined,
        ids: idFilter(req.query.filters),
      }),
    );

    scope.post<{ Body: { ids: string[] } }>(
      '/drive/v1/share::batchDelete',
      { schema: { body: Type.Object({ ids: Ids }) } },
      async (req) => {
        await cancelShares(ctx, req.userId, req.body.ids);
        return {};
      },
    );

    scope.post<{ Body: { file_ids: string[] } }>(
      '/drive/v1/share/status/files',
      { schema: { body: Type.Object({ file_ids: Ids }) } },
      async (req) => shareStatusOfFiles(ctx, req.userId, req.body.file_ids),
    );

    scope.post<{ Body: Static<typeof RestoreBody> }>('/drive/v1/share/restore', { schema: { body: RestoreBody } }, async (req) => ({
      share_status: SHARE_STATUS.OK,
      restore_status: 'RESTORE_COMPLETE',
      ...(await restoreFromShare(
        ctx,
        guard,
        { shareId: req.body.share_id, token: req.body.pass_code_token, callerId: req.userId, address: req.ip },
        { fileIds: req.body.file_ids, parentId: req.body.parent_id ?? '' },
      )),
    }));
  });
}
