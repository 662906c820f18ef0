/**
 * A feed's items become cloud downloads exactly once. An item is known by each of its keys (guid, link, info hash),
 * each unique per feed; a new one is written in the same transaction as its task (the insert, ON CONFLICT DO NOTHING,
 * is the claim: `createOfflineTasks`'s `once` hooks), so two workers reading the same answer, or a crash between
 * seeing an item and adding it, never make two tasks nor lose one. An item the day's limit keeps waiting stays
 * `matched` and is tried again at the next check; fetching one anyway is the same claim, from skipped, waiting or failed.
 */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { FeedItemsTable, FeedsTable } from '../db/schema-feeds.js';
import type { TaskRow } from '../db/schema.js';
import { HttpError, badInput } from '../http/errors.js';
import { newId, sha256Hex } from '../lib/ids.js';
import { probeHttpLink } from '../offline/http-probe.js';
import { createOfflineTasks, TORRENT_MAX_BYTES } from '../offline/offline.service.js';
import { OFFLINE_REASONS, offlineReason } from '../offline/offline-reasons.js';
import type { ParsedItem } from './feed-parse.js';
import { skipReason } from './feed-patterns.js';

type ItemRow = FeedItemsTable;
/** Errors that leave an item waiting for a later check rather than failed. */
const WAIT_ERRORS = new Set(['task_daily_create_limit', 'monthly_cloud_download_size_exceeded']);
/** Waiting items tried again at one check (the oldest first). */
const RETRY_BATCH = 50;
const PROBE_TIMEOUT_MS = 30_000;

function keysOf(item: ParsedItem): Pick<ItemRow, 'guid_key' | 'link_key' | 'hash_key'> {
  return {
    guid_key: item.guid ? sha256Hex(`guid:${item.guid}`) : null,
    link_key: item.link ? sha256Hex(`link:${item.link}`) : null,
    hash_key: item.infoHash ? sha256Hex(`btih:${item.infoHash}`) : null,
  };
}

async function known(db: Db, feedId: string, keys: ReturnType<typeof keysOf>): Promise<boolean> {
  const given = Object.entries(keys).filter(([, v]) => v !== null) as [keyof typeof keys, string][];
  if (!given.length) return true;
  const row = await db
    .selectFrom('feed_items')
    .select('id')
    .where('feed_id', '=', feedId)
    .where((eb) => eb.or(given.map(([k, v]) => eb(k, '=', v))))
    .executeTakeFirst();
  return Boolean(row);
}

function newRow(feed: FeedsTable, item: ParsedItem, state: ItemRow['state'], why: string, now: number): ItemRow {
  return {
    id: newId(),
    feed_id: feed.id,
    user_id: feed.user_id,
    ...keysOf(item),
    title: item.title,
    link: item.link.slice(0, 20_000),
    kind: item.kind,
    state,
    why,
    task_id: '',
    published_at: item.publishedAt,
    seen_at: now,
  };
}

async function insertItem(db: Db, row: ItemRow): Promise<boolean> {
  const r = await db.insertInto('feed_items').values(row).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst();
  return Boolean(r);
}

/** The .torrent behind a torrent item's link, base64, read through the network guard. */
async function torrentOf(ctx: AppContext, link: string): Promise<string> {
  try {
    const probe = await probeHttpLink(link, { allowPrivateNetwork: ctx.config.allowPrivateNetwork, timeoutMs: PROBE_TIMEOUT_MS, torrentMaxBytes: TORRENT_MAX_BYTES });
    if (!probe.torrent) throw badInput('The link does not serve a .torrent file.');
    return probe.torrent.toString('base64');
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw badInput(OFFLINE_REASONS[offlineReason(err)]);
  }
}

/** One item's task, made only if `claim` wins in the task's transaction. */
async function makeTask(
  ctx: AppContext,
  feed: FeedsTable,
  item: Pick<ItemRow, 'link' | 'kind' | 'title'>,
  claim: (trx: Db) => Promise<boolean>,
  itemId: string,
): Promise<TaskRow[]> {
  if (item.kind === 'none') throw badInput('The item names nothing to fetch.');
  const input = item.kind === 'torrent' ? { text: '', torrent: await torrentOf(ctx, item.link), parentId: feed.parent_id } : { text: item.link, parentId: feed.parent_id };
  return createOfflineTasks(ctx, feed.user_id, input, {
    once: {
      claim,
      made: async (trx, tasks) => {
        await trx.updateTable('feed_items').set({ state: 'fetched', why: '', task_id: tasks[0]?.id ?? '' }).where('id', '=', itemId).execute();
      },
    },
  });
}

export interface IngestResult {
  tasks: number;
  seen: number;
}

/**
 * The items of one read of the feed, oldest first; then the items left waiting. `existing: 'skip'` records the items
 * as skipped (a subscription that leaves what the feed already lists).
 */
export async function ingestItems(ctx: AppContext, feed: FeedsTable, items: ParsedItem[], opts: { skipAll?: string } = {}): Promise<IngestResult> {
  const include = JSON.parse(feed.include) as string[];
  const exclude = JSON.parse(feed.exclude) as string[];
  const result: IngestResult = { tasks: 0, seen: 0 };
  let waitWhy = '';
  for (const item of [...items].reverse()) {
    const keys = keysOf(item);
    if (await known(ctx.db, feed.id, keys)) continue;
    const now = ctx.clock.now();
    result.seen++;
    const why = opts.skipAll ?? (item.kind === 'none' ? 'The item names nothing to fetch.' : skipReason(item.title, include, exclude));
    if (why) {
      await insertItem(ctx.db, newRow(feed, item, 'skipped', why, now));
      continue;
    }
    const row = newRow(feed, item, 'fetched', '', now);
    if (waitWhy) {
      await insertItem(ctx.db, { ...row, state: 'matched', why: waitWhy });
      continue;
    }
    try {
      const tasks = await makeTask(ctx, feed, row, (trx) => insertItem(trx, row), row.id);
      result.tasks += tasks.length;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      if (WAIT_ERRORS.has(err.error)) waitWhy = err.message;
      await insertItem(ctx.db, { ...row, state: WAIT_ERRORS.has(err.error) ? 'matched' : 'failed', why: err.message });
    }
  }
  if (!waitWhy) result.tasks += await retryWaiting(ctx, feed);
  return result;
}

/** Items left waiting by a limit, tried again until the limit holds them back once more. */
export async function retryWaiting(ctx: AppContext, feed: FeedsTable): Promise<number> {
  const waiting = await ctx.db.selectFrom('feed_items').selectAll().where('feed_id', '=', feed.id).where('state', '=', 'matched').orderBy('seen_at').orderBy('id').limit(RETRY_BATCH).execute();
  let made = 0;
  for (const item of waiting) {
    try {
      made += (await fetchItem(ctx, feed, item, ['matched'])).length;
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      if (WAIT_ERRORS.has(err.error)) break;
      await ctx.db.updateTable('feed_items').set({ state: 'failed', why: err.message }).where('id', '=', item.id).where('state', '=', 'matched').execute();
    }
  }
  return made;
}

/** One known item's task, if it is still in one of `from` when the task's transaction claims it. */
export function fetchItem(ctx: AppContext, feed: FeedsTable, item: ItemRow, from: ItemRow['state'][]): Promise<TaskRow[]> {
  const claim = async (trx: Db) => {
    const r = await trx.updateTable('feed_items').set({ state: 'fetched', why: '' }).where('id', '=', item.id).where('state', 'in', from).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  };
  return makeTask(ctx, feed, item, claim, item.id);
}
