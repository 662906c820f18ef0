/** /drive/v1/files…: thin routes over the file services. */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { FILE_KIND, FOLDER_KIND, LIMITS, type DriveFile, type FileList } from '@haul/shared';
import type { AppContext } from '../context.js';
import { signDownloadLink } from '../downloads/download-links.js';
import { badInput } from '../http/errors.js';
import { recordBatchTask } from '../tasks/tasks.repository.js';
import { startUpload, UploadFields } from '../uploads/uploads.routes.js';
import { createOfflineTasks } from '../offline/offline.service.js';
import { presentTask } from '../tasks/tasks.presenter.js';
import { copyFiles, moveFiles } from './copy-move.service.js';
import { presentBreadcrumb, presentFile, presentTombstone, type PresentOptions } from './files.presenter.js';
import { ancestorChain, requireFile } from './files.repository.js';
import { createFolder, setStar, updateFile } from './files.service.js';
import { parseFilters, parseOrder } from './list-filters.js';
import { listFilesPage } from './list-query.js';
import { deleteFiles, emptyTrash, trashFiles, untrashFiles } from './trash.service.js';
import { describeFileMedia, thumbnailLinker } from '../media/media.service.js';
import { thumbnailSize } from '../media/playback.policy.js';

const Id = Type.String({ minLength: 1, maxLength: 64 });
const ParentId = Type.String({ maxLength: 64 });
const Ids = Type.Array(Id, { minItems: 1, maxItems: LIMITS.batchMaxIds });
const IdsBody = Type.Object({ ids: Ids });
const ToBody = Type.Object({ ids: Ids, to: Type.Object({ parent_id: ParentId }) });
const ListQuery = Type.Object({
  parent_id: Type.Optional(ParentId),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.listMax })),
  page_token: Type.Optional(Type.String({ maxLength: 2000 })),
  filters: Type.Optional(Type.String({ maxLength: 20000 })),
  order: Type.Optional(Type.String({ maxLength: 40 })),
  thumbnail_size: Type.Optional(Type.String({ maxLength: 40 })),
  with_audit: Type.Optional(Type.String({ maxLength: 10 })),
});
const CreateBody = Type.Object({
  kind: Type.String({ maxLength: 40 }),
  name: Type.Optional(Type.String({ maxLength: 1024 })),
  parent_id: Type.Optional(ParentId),
  url: Type.Optional(Type.Object({ url: Type.String({ maxLength: 100_000 }) })),
  /** A .torrent file, base64 (cloud download). */
  torrent: Type.Optional(Type.String({ maxLength: 7_000_000 })),
  params: Type.Optional(Type.Object({ file_ids: Type.Optional(Type.String({ maxLength: 1_000_000 })) })),
  folder_type: Type.Optional(Type.String({ maxLength: 40 })),
  upload_type: Type.Optional(Type.String({ maxLength: 40 })),
  ...UploadFields,
});
const PatchBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1024 })),
  star: Type.Optional(Type.Union([Type.Integer(), Type.Boolean()])),
});
const IdParams = Type.Object({ id: Id });
const GetQuery = Type.Object({
  usage: Type.Optional(Type.String({ maxLength: 40 })),
  thumbnail_size: Type.Optional(Type.String({ maxLength: 40 })),
});

export async function filesRoutes(app: FastifyInstance, ctx: AppContext, onTaskCreated: () => void, onMediaJob: () => void = () => {}): Promise<void> {
  const opts: PresentOptions = { retentionMs: ctx.config.trashRetentionDays * 86_400_000 };
  const present = (row: Parameters<typeof presentFile>[0], extra: Partial<PresentOptions> = {}): DriveFile =>
    presentFile(row, { ...opts, ...extra });
  const batch = async (userId: string, type: string, count: number) => ({
    task_id: await recordBatchTask(ctx.db, userId, type, count, ctx.clock.now()),
  });

  app.get<{ Querystring: Static<typeof ListQuery> }>('/drive/v1/files', { schema: { querystring: ListQuery } }, async (req): Promise<FileList> => {
    const parentId = req.query.parent_id ?? '';
    // Listing a folder that is not the user's answers like any unknown id.
    if (parentId !== '' && parentId !== '*') await requireFile(ctx.db, req.userId, parentId);
    const page = await listFilesPage(ctx, {
      userId: req.userId,
      parentId,
      filters: parseFilters(req.query.filters),
      order: parseOrder(req.query.order),
      limit: req.query.limit ?? LIMITS.listDefault,
      pageToken: req.query.page_token || undefined,
    });
    const byId = new Map<string, DriveFile>();
    const thumbnailLink = thumbnailLinker(ctx, req.userId, thumbnailSize(req.query.thumbnail_size));
    for (const r of page.rows) byId.set(r.id, present(r, { thumbnailLink }));
    for (const t of page.tombstones) byId.set(t.file_id, presentTombstone(t));
    return {
      kind: 'drive#fileList',
      files: page.order.map((id) => byId.get(id)).filter((f): f is DriveFile => f !== undefined),
      next_page_token: page.nextPageToken,
      sync_time: new Date(page.syncTime).toISOString(),
    };
  });

  app.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof GetQuery> }>(
    '/drive/v1/files/:id',
    { schema: { params: IdParams, querystring: GetQuery } },
    async (req) => {
      const row = await requireFile(ctx.db, req.userId, req.params.id);
      const link = row.kind === FOLDER_KIND || row.trashed ? '' : signDownloadLink(ctx, req.caller, row.id);
      const thumbnailLink = thumbnailLinker(ctx, req.userId, thumbnailSize(req.query.thumbnail_size), true);
      const file = present(row, { webContentLink: link, thumbnailLink });
      // Video, audio and image: how to play it (usage=PLAY starts a video's transcode) and what the probe found.
      const media = await describeFileMedia(ctx, req.userId, row, { play: req.query.usage === 'PLAY', onQueued: onMediaJob });
      return media ? { ...file, params: { ...file.params, ...media.params }, medias: media.medias } : file;
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>('/drive/v1/files/:id/ancestors', { schema: { params: IdParams } }, async (req) => {
    const chain = await ancestorChain(ctx.db, req.userId, req.params.id);
    return { ancestors: chain.map(presentBreadcrumb) };
  });

  // Room for a .torrent file in the body.
  app.post<{ Body: Static<typeof CreateBody> }>('/drive/v1/files', { schema: { body: CreateBody }, bodyLimit: 8 * 1024 * 1024 }, async (req) => {
    if (req.body.kind === FILE_KIND && req.body.upload_type === 'UPLOAD_TYPE_RESUMABLE') {
      return startUpload(ctx, ctx.uploads, req.userId, req.body);
    }
    if (req.body.kind === FILE_KIND && req.body.upload_type === 'UPLOAD_TYPE_URL') {
      const tasks = await createOfflineTasks(ctx, req.userId, {
        text: req.body.url?.url ?? '',
        torrent: req.body.torrent,
        fileIds: req.body.params?.file_ids,
        parentId: req.body.parent_id ?? '',
        name: req.body.name || undefined,
      });
      onTaskCreated();
      const presented = tasks.map((t) => presentTask(t));
      return { upload_type: 'UPLOAD_TYPE_URL', file: null, task: presented[0], tasks: presented };
    }
    if (req.body.kind !== FOLDER_KIND) {
      throw badInput('Create a folder (kind "drive#folder") or an upload (kind "drive#file", upload_type "UPLOAD_TYPE_RESUMABLE").');
    }
    const row = await createFolder(ctx, req.userId, req.body.parent_id ?? '', req.body.name ?? '');
    return { upload_type: '', file: present(row), task: null };
  });

  app.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof PatchBody> }>(
    '/drive/v1/files/:id',
    { schema: { params: IdParams, body: PatchBody } },
    async (req) => present(await updateFile(ctx, req.userId, req.params.id, req.body)),
  );

  app.post<{ Body: Static<typeof IdsBody> }>('/drive/v1/files::batchTrash', { schema: { body: IdsBody } }, async (req) => {
    await trashFiles(ctx, req.userId, req.body.ids);
    return batch(req.userId, 'batch_trash', req.body.ids.length);
  });
  app.post<{ Body: Static<typeof IdsBody> }>('/drive/v1/files::batchUntrash', { schema: { body: IdsBody } }, async (req) => {
    await untrashFiles(ctx, req.userId, req.body.ids);
    return batch(req.userId, 'batch_untrash', req.body.ids.length);
  });
  app.post<{ Body: Static<typeof IdsBody> }>('/drive/v1/files::batchDelete', { schema: { body: IdsBody } }, async (req) => {
    await deleteFiles(ctx, req.userId, req.body.ids);
    return batch(req.userId, 'batch_delete', req.body.ids.length);
  });
  app.post<{ Body: Static<typeof ToBody> }>('/drive/v1/files::batchMove', { schema: { body: ToBody } }, async (req) => {
    await moveFiles(ctx, req.userId, req.body.ids, req.body.to.parent_id);
    return batch(req.userId, 'batch_move', req.body.ids.length);
  });
  app.post<{ Body: Static<typeof ToBody> }>('/drive/v1/files::batchCopy', { schema: { body: ToBody } }, async (req) => {
    const ids = await copyFiles(ctx, req.userId, req.body.ids, req.body.to.parent_id);
    return { ...(await batch(req.userId, 'batch_copy', req.body.ids.length)), file_ids: ids };
  });
  app.post<{ Body: Static<typeof IdsBody> }>('/drive/v1/files::star', { schema: { body: IdsBody } }, async (req) => {
    await setStar(ctx, req.userId, req.body.ids, true);
    return batch(req.userId, 'batch_star', req.body.ids.length);
  });
  app.post<{ Body: Static<typeof IdsBody> }>('/drive/v1/files::unstar', { schema: { body: IdsBody } }, async (req) => {
    await setStar(ctx, req.userId, req.body.ids, false);
    return batch(req.userId, 'batch_unstar', req.body.ids.length);
  });
  app.patch('/drive/v1/files/trash::empty', async (req) => {
    await emptyTrash(ctx, req.userId);
    return batch(req.userId, 'empty_trash', 0);
  });
}
