/**
 * Feeds: RSS and Atom feeds (torrent sites, podcasts) checked on an interval; each new item that passes the feed's
 * patterns becomes one cloud download into the feed's folder, once. A feed keeps the history of its items.
 */
import { Type, type Static } from '@sinclair/typebox';
import { DriveTaskSchema } from '../entities.js';
import { route } from './define.js';
import { Empty, StringEnum, TimeString } from './schema-kit.js';

const tag = 'Feeds';

export const FEED_ITEM_STATES = ['matched', 'skipped', 'fetched', 'failed'] as const;
export type FeedItemState = (typeof FEED_ITEM_STATES)[number];
export const FEED_ITEM_KINDS = ['http', 'magnet', 'torrent', 'none'] as const;
/** The shortest and longest time between two checks of a feed, in minutes. */
export const FEED_INTERVAL = { min: 15, max: 7 * 24 * 60, default: 60 } as const;
/** Feeds one account may follow. */
export const MAX_FEEDS = 100;

const FeedId = Type.String({ minLength: 1, maxLength: 64 });
const Patterns = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    maxItems: 50,
    description: `${what} Each is words matched anywhere in the item's title in any case, \`*\` standing for anything; or a regular expression between slashes (\`/1080p|2160p/\`).`,
  });
const Interval = Type.Integer({ minimum: FEED_INTERVAL.min, maximum: FEED_INTERVAL.max, description: 'Minutes between two checks (15 to 10080; 60 unless said).' });

export const FeedSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.String({ description: "The feed's own title, as last read." }),
  parent_id: Type.String({ description: "The folder new items are fetched into; '' for the top of the drive." }),
  include: Type.Array(Type.String()),
  exclude: Type.Array(Type.String()),
  interval_minutes: Type.Integer(),
  paused: Type.Boolean(),
  last_checked_at: TimeString("When the feed was last read (an unchanged answer counts); '' before the first check."),
  next_check_at: TimeString("When it is read next; '' while paused."),
  last_error: Type.String({ description: "Why the last check failed, in words; '' when it did not." }),
  failures: Type.Integer({ description: 'Checks failed in a row; each one waits longer before the next (up to a day).' }),
  item_count: Type.Integer({ description: 'Items in its history.' }),
  created_at: TimeString(),
});
export type Feed = Static<typeof FeedSchema>;

export const FeedItemSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  link: Type.String({ description: 'What is fetched: a magnet link, a .torrent link or a file link.' }),
  kind: StringEnum(FEED_ITEM_KINDS, { description: "'none' when the item names nothing to fetch." }),
  state: StringEnum(FEED_ITEM_STATES, {
    description: 'matched: passes the patterns, waiting for a cloud download (the day\'s are used up); skipped: left out (see why); fetched: its cloud download was added; failed: it could not be added (see why).',
  }),
  why: Type.String({ description: "Why it was skipped, failed or is waiting, in words; '' when fetched." }),
  task_id: Type.String({ description: "The cloud download made from it; '' when none." }),
  published_at: TimeString("When the feed says it was published; '' when it does not."),
  seen_at: TimeString('When it was first seen in the feed.'),
});
export type FeedItem = Static<typeof FeedItemSchema>;

const Settings = {
  parent_id: Type.Optional(Type.String({ maxLength: 64 })),
  include: Type.Optional(Patterns('Only items whose title matches one of these are fetched (all, when empty).')),
  exclude: Type.Optional(Patterns('Items whose title matches one of these are skipped.')),
  interval_minutes: Type.Optional(Interval),
};

export const feedsRoutes = {
  listFeeds: route({
    method: 'GET',
    path: '/drive/v1/feeds',
    tag,
    summary: 'List feeds',
    description: "The account's feeds, the most recently added first, with how their checks went.",
    auth: 'user',
    response: Type.Object({ feeds: Type.Array(FeedSchema) }),
    errors: {},
  }),
  createFeed: route({
    method: 'POST',
    path: '/drive/v1/feeds',
    tag,
    summary: 'Subscribe to a feed',
    description:
      "Reads the feed once (an RSS or Atom feed over http or https) and answers its title and how many items it lists. With `existing: 'fetch'` (the default) the items it lists now are handled at the first check like any new one; with `'skip'` they are kept in the history as skipped, to fetch one by one. A check runs at once, then every `interval_minutes`.",
    auth: 'user',
    body: Type.Object({
      url: Type.String({ minLength: 1, maxLength: 2000 }),
      ...Settings,
      existing: Type.Optional(StringEnum(['fetch', 'skip'] as const)),
    }),
    response: Type.Object({ feed: FeedSchema, items_listed: Type.Integer({ description: 'Items the feed lists now.' }) }),
    errors: {
      invalid_argument: 'Not an http(s) link, not a feed, the feed could not be read (the reason in words), a pattern that is not a valid regular expression, or the feed is followed already.',
      file_not_found: 'The folder does not exist.',
      file_in_recycle_bin: 'The folder is in the trash.',
      resource_exhausted: 'The account follows the most feeds it may (100).',
    },
    example: { url: 'https://example.com/rss', parent_id: '', include: ['1080p'], exclude: ['*CAM*'], interval_minutes: 60 },
  }),
  updateFeed: route({
    method: 'PATCH',
    path: '/drive/v1/feeds/:id',
    tag,
    summary: 'Change a feed',
    description: 'Changes its folder, patterns, interval or pause. Resuming a paused feed checks it at once; new patterns apply to items seen from now on.',
    auth: 'user',
    params: Type.Object({ id: FeedId }),
    body: Type.Object({ ...Settings, paused: Type.Optional(Type.Boolean()) }),
    response: FeedSchema,
    errors: {
      file_not_found: 'No such feed of yours, or the folder does not exist.',
      file_in_recycle_bin: 'The folder is in the trash.',
      invalid_argument: 'A pattern is not a valid regular expression.',
    },
    example: { paused: true },
  }),
  deleteFeed: route({
    method: 'DELETE',
    path: '/drive/v1/feeds/:id',
    tag,
    summary: 'Unsubscribe from a feed',
    description: 'Deletes the feed and its history; the cloud downloads made from it stay.',
    auth: 'user',
    params: Type.Object({ id: FeedId }),
    response: Empty,
    errors: { file_not_found: 'No such feed of yours.' },
  }),
  listFeedItems: route({
    method: 'GET',
    path: '/drive/v1/feeds/:id/items',
    tag,
    summary: "A feed's history",
    description: 'The items seen in the feed, the most recently seen first: fetched, skipped and why, waiting or failed.',
    auth: 'user',
    params: Type.Object({ id: FeedId }),
    query: Type.Object({
      state: Type.Optional(StringEnum(FEED_ITEM_STATES)),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'Items a page (100 unless said).' })),
      page_token: Type.Optional(Type.String({ maxLength: 500 })),
    }),
    response: Type.Object({ items: Type.Array(FeedItemSchema), next_page_token: Type.String() }),
    errors: { file_not_found: 'No such feed of yours.', invalid_argument: 'page_token did not come from this listing.' },
  }),
  fetchFeedItems: route({
    method: 'POST',
    path: '/drive/v1/feeds/:id/items::fetch',
    tag,
    summary: 'Fetch items anyway',
    description:
      "Adds a cloud download for each item given that has none (skipped, waiting or failed) into the feed's folder, whatever the patterns say; an item fetched already is left as it is. The day's limit counts them.",
    auth: 'user',
    params: Type.Object({ id: FeedId }),
    body: Type.Object({ ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100 }) }),
    response: Type.Object({ items: Type.Array(FeedItemSchema), tasks: Type.Array(DriveTaskSchema) }),
    errors: {
      file_not_found: 'No such feed of yours, an item is not one of its items, or its folder is gone.',
      file_in_recycle_bin: "The feed's folder is in the trash.",
      invalid_argument: 'An item names nothing to fetch, its link is refused, or its .torrent cannot be read.',
      task_daily_create_limit: "Today's cloud downloads are used up.",
      monthly_cloud_download_size_exceeded: "The month's cloud download allowance is used up.",
      file_space_not_enough: 'A torrent is larger than the free space in your drive.',
      file_size_too_large: 'A torrent is larger than one cloud download of your plan may be.',
    },
    example: { ids: ['…'] },
  }),
};
