/** /drive/v1/files…: thin routes over the file services. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C, FILE_KIND, FOLDER_KIND, LIMITS, type DriveFile } from '@haul/shared';
import { serve } from '../http/contract.js';
import type { AppContext } from '../context.js';
import { signDownloadLink } from '../downloads/download-links.js';
import { badInput } from '../http/errors.js';
import { recordBatchTask, type BatchType } from '../tasks/tasks.repository.js';
import { startUpload } from '../uploads/start-upload.js';
import { createOfflineTasks } from '../offline/offline.service.js';
import { presentTask } from '../tasks/tasks.presenter.js';
import { copyFiles, moveFiles } from './copy-move.service.js';
import { presentBreadcrumb, presentFile, presentTombstone, type PresentOptions } from './files.presenter.js';
import { ancestorChain, liveNamed, requireFile } from './files.repository.js';
import { createFolder, setStar, updateFile } from './files.service.js';
import { parseFilters, parseOrder } from './list-filters.js';
import { listFilesPage } from './list-query.js';
import { deleteFiles, emptyTrash, trashFiles, untrashFiles } from './trash.service.js';
import { describeFileMedia, driveViewer, hasMedia, songsWithCover, thumbnailLinker } from '../media/media.service.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';
import { thumbnailSize } from '../media/playback.policy.js';

export async function filesRoutes(app: FastifyInstance, ctx: AppContext, onTaskCreated: () => void, onMediaJob: () => void = () => {}): Promise<void> {
  const opts: PresentOptions = { retentionMs: ctx.config.trashRetentionDays * 86_400_000 };
  const present = (row: Parameters<typeof presentFile>[0], extra: Partial<PresentOptions> = {}): DriveFile =>
    presentFile(row, { ...opts, ...extra });
  const batch = async (userId: string, type: BatchType, count: number) => ({
    task_id: await recordBatchTask(ctx.db, userId, type, count, ctx.clock.now()),
  });

  serve(app, C.listFiles, async (req) => {
    const parentId = req.query.parent_id ?? '';
    const filters = parseFilters(req.query.filters);
    const order = parseOrder(req.query.order);
    const limit = req.query.limit ?? LIMITS.listDefault;
    const page = await listFilesPage(ctx, { userId: req.userId, parentId, filters, order, limit, pageToken: req.query.page_token || undefined });
    // Listing a folder that is not the user's answers like any unknown id. Rows of the user's under it prove it is
    // theirs (every query is bound to the user), so the lookup runs only for an empty page: one query less per page.
    if (parentId !== '' && parentId !== '*' && page.rows.length === 0) await requireFile(ctx.db, req.userId, parentId);
    const pageOpts: PresentOptions = { ...opts, thumbnailLink: thumbnailLinker(ctx, req.caller, thumbnailSize(req.query.thumbnail_size)) };
    let files: DriveFile[];
    if (page.tombstones.length === 0) {
      // Rows come in page order.
      files = page.rows.map((r) => presentFile(r, pageOpts));
    } else {
      const byId = new Map<string, DriveFile>();
      for (const r of page.rows) byId.set(r.id, presentFile(r, pageOpts));
      for (const t of page.tombstones) byId.set(t.file_id, presentTombstone(t));
      files = page.order.map((id) => byId.get(id)).filter((f): f is DriveFile => f !== undefined);
    }
    return {
      kind: 'drive#fileList' as const,
      files,
      next_page_token: page.nextPageToken,
      sync_time: new Date(page.syncTime).toISOString(),
    };
  });

  serve(
    app,
    C.getFile,
    async (req) => {
      const row = await requireFile(ctx.db, req.userId, req.params.id);
      const link = row.kind === FOLDER_KIND || row.trashed ? '' : signDownloadLink(ctx, req.caller, row.id);
      const presentWith = async () =>
        present(row, { webContentLink: link, thumbnailLink: thumbnailLinker(ctx, req.caller, thumbnailSize(req.query.thumbnail_size), await songsWithCover(ctx, [row])) });
      if (!hasMedia(row)) return presentWith();
      // Video, audio and image: how to play it (usage=PLAY starts a video's transcode) and what the probe found (which
      // also tells whether a song has a cover to link to).
      const user = await findUserById(ctx.db, req.userId);
      const viewer = driveViewer(ctx, req.caller, row.id, !!user && isPremium(user, ctx.clock.now()));
      const media = await describeFileMedia(ctx, viewer, row, { play: req.query.usage === 'PLAY', onQueued: onMediaJob });
      const file = await presentWith();
      return media ? { ...file, params: { ...file.params, ...media.params }, medias: media.medias } : file;
    },
  );

  serve(app, C.fileAncestors, async (req) => {
    const chain = await ancestorChain(ctx.db, req.userId, req.params.id);
    return { ancestors: chain.map(presentBreadcrumb) };
  });

  serve(
    app,
    C.createFile,
    async (req) => {
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
        credentials: req.body.credentials,
      }, { requestId: req.id });
      onTaskCreated();
      const presented = tasks.map((t) => presentTask(t));
      return { upload_type: 'UPLOAD_TYPE_URL', file: null, task: presented[0], tasks: presented };
    }
    if (req.body.kind !== FOLDER_KIND) {
      throw badInput('Create a folder (kind "drive#folder") or an upload (kind "drive#file", upload_type "UPLOAD_TYPE_RESUMABLE").');
    }
    const row = await createFolder(ctx, req.userId, req.body.parent_id ?? '', req.body.name ?? '');
    return { upload_type: '', file: present(row), task: null };
  },
    // Room for a .torrent file in the body.
    { bodyLimit: 8 * 1024 * 1024 },
  );

  serve(
    app,
    C.updateFile,
    async (req) => present(await updateFile(ctx, req.userId, req.params.id, req.body)),
  );

  serve(app, C.batchTrash, async (req) => {
    await trashFiles(ctx, req.userId, req.body.ids);
    return batch(req.userId, 'batch_trash', req.body.ids.length);
  });
  serve(app, C.batchUntrash, async (req) => {
    await untrashFiles(ctx, req.userId, req.body.ids);
    return batch(req.userId, 'batch_untrash', req.body.ids.length);
  });
  serve(app, C.batchDelete, async (req) => {
    await deleteFiles(ctx, req.userId, req.body.ids);
    return batch(req.userId, 'batch_delete', req.body.ids.length);
  });
  serve(app, C.batchMove, async (req) => {
    await moveFiles(ctx, req.userId, req.body.ids, req.body.to.parent_id);
    return batch(req.userId, 'batch_move', req.body.ids.length);
  });
  serve(app, C.batchCopy, async (req) => {
    const ids = await copyFiles(ctx, req.userId, req.body.ids, req.body.to.parent_id);
    return { ...(await batch(req.userId, 'batch_copy', req.body.ids.length)), file_ids: ids };
  });
  serve(app, C.star, async (req) => {
    await setStar(ctx, req.userId, req.body.ids, true);
    return batch(req.userId, 'batch_star', req.body.ids.length);
  });
  serve(app, C.unstar, async (req) => {
    await setStar(ctx, req.userId, req.body.ids, false);
    return batch(req.userId, 'batch_unstar', req.body.ids.length);
  });
  serve(app, C.nameClashes, async (req) => ({ clashes: await liveNamed(ctx.db, req.userId, req.body.parent_id, req.body.names) }));
  serve(app, C.emptyTrash, async (req) => {
    await emptyTrash(ctx, req.userId);
    return batch(req.userId, 'empty_trash', 0);
  });
}
