/** /drive/v1/bookmarks: links kept to fetch later; every call is the signed-in account's own. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { presentTask } from '../tasks/tasks.presenter.js';
import { deleteBookmarks, fetchBookmarks, keepBookmark, listBookmarks, presentBookmark, renameBookmark } from './bookmarks.service.js';

const PAGE = 100;

/** `onTasks` wakes the cloud download worker when a fetch made tasks. */
export async function bookmarksRoutes(app: FastifyInstance, ctx: AppContext, onTasks: () => void): Promise<void> {
  serve(app, C.listBookmarks, async (req) => {
    const page = await listBookmarks(ctx.db, req.userId, { q: req.query.q, limit: req.query.limit ?? PAGE, pageToken: req.query.page_token });
    return { bookmarks: page.rows.map(presentBookmark), next_page_token: page.nextPageToken };
  });

  serve(app, C.createBookmark, async (req) => presentBookmark(await keepBookmark(ctx, req.userId, req.body)));

  serve(app, C.renameBookmark, async (req) => presentBookmark(await renameBookmark(ctx, req.userId, req.params.id, req.body.name)));

  serve(app, C.deleteBookmarks, async (req) => {
    await deleteBookmarks(ctx, req.userId, req.body.ids);
    return {};
  });

  serve(app, C.fetchBookmarks, async (req) => {
    const tasks = await fetchBookmarks(ctx, req.userId, req.body.ids, req.body.parent_id, req.id);
    if (tasks.length) onTasks();
    return { tasks: tasks.map((t) => presentTask(t)) };
  });
}
