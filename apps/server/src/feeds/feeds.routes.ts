/** /drive/v1/feeds: the feeds an account follows and their items; every call is the signed-in account's own. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { presentTask } from '../tasks/tasks.presenter.js';
import type { FeedWorker } from './feed.worker.js';
import { createFeed, deleteFeed, fetchFeedItems, listFeedItems, listFeeds, presentFeedItem, presentOne, updateFeed } from './feeds.service.js';

const PAGE = 100;

/** `onTasks` wakes the cloud download worker when "fetch anyway" made tasks. */
export async function feedsRoutes(app: FastifyInstance, ctx: AppContext, feeds: FeedWorker, onTasks: () => void): Promise<void> {
  serve(app, C.listFeeds, async (req) => ({ feeds: await listFeeds(ctx.db, req.userId) }));

  serve(app, C.createFeed, async (req) => {
    const { feed, itemsListed } = await createFeed(ctx, req.userId, req.body);
    feeds.wake();
    return { feed, items_listed: itemsListed };
  });

  serve(app, C.updateFeed, async (req) => {
    const row = await updateFeed(ctx, req.userId, req.params.id, req.body);
    if (req.body.paused === false) feeds.wake();
    return presentOne(ctx.db, row);
  });

  serve(app, C.deleteFeed, async (req) => {
    await deleteFeed(ctx, req.userId, req.params.id);
    return {};
  });

  serve(app, C.listFeedItems, async (req) => {
    const page = await listFeedItems(ctx.db, req.userId, req.params.id, { state: req.query.state, limit: req.query.limit ?? PAGE, pageToken: req.query.page_token });
    return { items: page.rows.map(presentFeedItem), next_page_token: page.nextPageToken };
  });

  serve(app, C.fetchFeedItems, async (req) => {
    const { items, tasks } = await fetchFeedItems(ctx, req.userId, req.params.id, req.body.ids);
    if (tasks.length) onTasks();
    return { items: items.map(presentFeedItem), tasks: tasks.map((t) => presentTask(t)) };
  });
}
