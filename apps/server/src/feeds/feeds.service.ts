/**
 * Feeds an account follows: subscribe (the feed is read once to check it is one), change, pause, unsubscribe, the
 * history of its items, and fetching an item anyway. Reading a feed on its interval is the worker's (feed.worker.ts);
 * it is woken when a feed is added or resumed.
 */
import { FEED_INTERVAL, MAX_FEEDS, type Feed, type FeedItem } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { FeedItemsTable, FeedsTable } from '../db/schema-feeds.js';
import type { TaskRow } from '../db/schema.js';
import { requireTargetFolder } from '../files/files.repository.js';
import { HttpError, badInput, notFound } from '../http/errors.js';
import { newId, sha256Hex } from '../lib/ids.js';
import { decodeTimeCursor, encodePageToken } from '../lib/page-token.js';
import { toRfc3339 } from '../lib/time.js';
import { parseHttpLink } from '../offline/network-guard.js';
import { FeedFetchError, fetchFeed } from './feed-fetch.js';
import { fetchItem, ingestItems } from './feed-items.js';
import { NotAFeedError, parseFeedText } from './feed-parse.js';
import { cleanPatterns } from './feed-patterns.js';

const MINUTE = 60_000;

export function presentFeed(row: FeedsTable, itemCount: number): Feed {
  return {
    id: row.id,
    url: row.url,
    title: row.title,
    parent_id: row.parent_id,
    include: JSON.parse(row.include) as string[],
    exclude: JSON.parse(row.exclude) as string[],
    interval_minutes: row.interval_minutes,
    paused: Boolean(row.paused),
    last_checked_at: toRfc3339(row.last_checked_at),
    next_check_at: row.paused ? '' : toRfc3339(row.next_check_at),
    last_error: row.last_error,
    failures: row.failures,
    item_count: itemCount,
    created_at: toRfc3339(row.created_at),
  };
}

export function presentFeedItem(row: FeedItemsTable): FeedItem {
  return {
    id: row.id,
    title: row.title,
    link: row.link,
    kind: row.kind,
    state: row.state,
    why: row.why,
    task_id: row.task_id,
    published_at: toRfc3339(row.published_at),
    seen_at: toRfc3339(row.seen_at),
  };
}

async function itemCounts(db: Db, feedIds: string[]): Promise<Map<string, number>> {
  if (!feedIds.length) return new Map();
  const rows = await db
    .selectFrom('feed_items')
    .select(['feed_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('feed_id', 'in', feedIds)
    .groupBy('feed_id')
    .execute();
  return new Map(rows.map((r) => [r.feed_id, Number(r.n)]));
}

export async function listFeeds(db: Db, userId: string): Promise<Feed[]> {
  const rows = await db.selectFrom('feeds').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  const counts = await itemCounts(db, rows.map((r) => r.id));
  return rows.map((r) => presentFeed(r, counts.get(r.id) ?? 0));
}

export async function requireFeed(db: Db, userId: string, id: string): Promise<FeedsTable> {
  const row = await db.selectFrom('feeds').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('No such feed of yours.');
  return row;
}

export async function presentOne(db: Db, row: FeedsTable): Promise<Feed> {
  return presentFeed(row, (await itemCounts(db, [row.id])).get(row.id) ?? 0);
}

/** Reads a feed once, as a subscription or a check does; a failure is a 400 naming why. */
export async function readFeedOnce(ctx: AppContext, url: string) {
  try {
    const answer = await fetchFeed(url, { etag: '', lastModified: '' }, { allowPrivateNetwork: ctx.config.allowPrivateNetwork });
    if (!answer.changed) throw badInput('The feed answered "not modified" to a first read.');
    return await parseFeedText(answer.body);
  } catch (err) {
    if (err instanceof FeedFetchError || err instanceof NotAFeedError) throw badInput(err.message);
    throw err;
  }
}

export interface FeedSettings {
  parent_id?: string;
  include?: string[];
  exclude?: string[];
  interval_minutes?: number;
}

export async function createFeed(
  ctx: AppContext,
  userId: string,
  input: FeedSettings & { url: string; existing?: 'fetch' | 'skip' },
): Promise<{ feed: Feed; itemsListed: number }> {
  const url = parseHttpLink(input.url);
  if (!url) throw badInput(`"${input.url.slice(0, 200)}" is not an http or https link.`);
  const link = url.toString();
  const include = cleanPatterns(input.include);
  const exclude = cleanPatterns(input.exclude);
  const parentId = input.parent_id ?? '';
  await requireTargetFolder(ctx.db, userId, parentId);
  const urlKey = sha256Hex(link);
  if (await ctx.db.selectFrom('feeds').select('id').where('user_id', '=', userId).where('url_key', '=', urlKey).executeTakeFirst()) {
    throw badInput('You follow this feed already.');
  }
  const { n } = await ctx.db.selectFrom('feeds').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  if (Number(n) >= MAX_FEEDS) throw new HttpError(403, 'resource_exhausted', `You follow ${MAX_FEEDS} feeds, the most an account may: unsubscribe from some first.`);
  const parsed = await readFeedOnce(ctx, link);
  const now = ctx.clock.now();
  const row: FeedsTable = {
    id: newId(),
    user_id: userId,
    url: link,
    url_key: urlKey,
    title: parsed.title || url.hostname,
    parent_id: parentId,
    include: JSON.stringify(include),
    exclude: JSON.stringify(exclude),
    interval_minutes: input.interval_minutes ?? FEED_INTERVAL.default,
    paused: 0,
    etag: '',
    last_modified: '',
    last_checked_at: null,
    // The first check runs at once, on a worker; it reads the feed again (without validators), so nothing is missed.
    next_check_at: now,
    lease_until: 0,
    failures: 0,
    last_error: '',
    created_at: now,
  };
  const added = await ctx.db.insertInto('feeds').values(row).onConflict((oc) => oc.doNothing()).returning('id').executeTakeFirst();
  if (!added) throw badInput('You follow this feed already.');
  if (input.existing === 'skip') await ingestItems(ctx, row, parsed.items, { skipAll: 'Listed before you subscribed.' });
  return { feed: await presentOne(ctx.db, row), itemsListed: parsed.items.length };
}

export async function updateFeed(ctx: AppContext, userId: string, id: string, input: FeedSettings & { paused?: boolean }): Promise<FeedsTable> {
  const feed = await requireFeed(ctx.db, userId, id);
  if (input.parent_id !== undefined) await requireTargetFolder(ctx.db, userId, input.parent_id);
  const now = ctx.clock.now();
  const resumed = input.paused === false && feed.paused === 1;
  const changes: Partial<FeedsTable> = {
    ...(input.parent_id !== undefined ? { parent_id: input.parent_id } : {}),
    ...(input.include !== undefined ? { include: JSON.stringify(cleanPatterns(input.include)) } : {}),
    ...(input.exclude !== undefined ? { exclude: JSON.stringify(cleanPatterns(input.exclude)) } : {}),
    ...(input.interval_minutes !== undefined ? { interval_minutes: input.interval_minutes } : {}),
    ...(input.paused !== undefined ? { paused: input.paused ? 1 : 0 } : {}),
    // Resumed: checked at once, with a clean slate of failures.
    ...(resumed ? { next_check_at: now, failures: 0 } : {}),
  };
  if (input.interval_minutes !== undefined && !resumed && feed.last_checked_at !== null && feed.failures === 0) {
    changes.next_check_at = Math.max(now, feed.last_checked_at + input.interval_minutes * MINUTE);
  }
  if (!Object.keys(changes).length) return feed;
  const row = await ctx.db.updateTable('feeds').set(changes).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  if (!row) throw notFound('No such feed of yours.');
  return row;
}

export async function deleteFeed(ctx: AppContext, userId: string, id: string): Promise<void> {
  await requireFeed(ctx.db, userId, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('feed_items').where('feed_id', '=', id).execute();
    await trx.deleteFrom('feeds').where('id', '=', id).where('user_id', '=', userId).execute();
  });
}

/** A page of the feed's history, the most recently seen first (keyset on seen_at, then id). */
export async function listFeedItems(db: Db, userId: string, feedId: string, opts: { state?: FeedItemsTable['state']; limit: number; pageToken?: string }) {
  await requireFeed(db, userId, feedId);
  const listing = `feed-items|${feedId}|${opts.state ?? ''}`;
  let query = db.selectFrom('feed_items').selectAll().where('feed_id', '=', feedId);
  if (opts.state) query = query.where('state', '=', opts.state);
  if (opts.pageToken) {
    const [t, id] = decodeTimeCursor(opts.pageToken, listing);
    query = query.where((eb) => eb.or([eb('seen_at', '<', t), eb.and([eb('seen_at', '=', t), eb('id', '<', id)])]));
  }
  const rows = await query.orderBy('seen_at', 'desc').orderBy('id', 'desc').limit(opts.limit + 1).execute();
  const more = rows.length > opts.limit;
  if (more) rows.pop();
  const last = rows.at(-1);
  return { rows, nextPageToken: more && last ? encodePageToken(listing, [last.seen_at, last.id]) : '' };
}

/** "Fetch anyway": a task for each item given that has none, whatever the patterns say. */
export async function fetchFeedItems(ctx: AppContext, userId: string, feedId: string, ids: string[]): Promise<{ items: FeedItemsTable[]; tasks: TaskRow[] }> {
  const feed = await requireFeed(ctx.db, userId, feedId);
  const unique = [...new Set(ids)];
  const rows = await ctx.db.selectFrom('feed_items').selectAll().where('feed_id', '=', feedId).where('id', 'in', unique).execute();
  if (rows.length !== unique.length) throw notFound('An item is not one of this feed\'s items.');
  const tasks: TaskRow[] = [];
  for (const row of rows) if (row.state !== 'fetched') tasks.push(...(await fetchItem(ctx, feed, row, ['skipped', 'matched', 'failed'])));
  const items = await ctx.db.selectFrom('feed_items').selectAll().where('id', 'in', unique).execute();
  return { items: unique.map((id) => items.find((r) => r.id === id)!), tasks };
}

/** Account erasure: the account's feeds and their items, `chunk` at a time. */
export async function eraseAccountFeeds(db: Db, userId: string, chunk: number): Promise<number> {
  const items = db.selectFrom('feed_items').select('id').where('user_id', '=', userId).limit(chunk);
  const gone = await db.deleteFrom('feed_items').where('id', 'in', items).executeTakeFirst();
  if (Number(gone.numDeletedRows)) return Number(gone.numDeletedRows);
  const feeds = db.selectFrom('feeds').select('id').where('user_id', '=', userId).limit(chunk);
  const r = await db.deleteFrom('feeds').where('id', 'in', feeds).executeTakeFirst();
  return Number(r.numDeletedRows);
}
