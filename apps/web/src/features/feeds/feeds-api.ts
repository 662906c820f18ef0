/** Feeds on the server: subscriptions, their history, and fetching an item anyway. */
import type { Feed, FeedItem } from '@haul/shared';
import { haul } from '../../lib/api-client';

export type { Feed, FeedItem };
export const FEEDS_KEY = 'feeds';
export const FEED_ITEMS_KEY = 'feed-items';
/** The intervals offered, in minutes (the server takes any from 15 to a week). */
export const INTERVALS = [15, 30, 60, 180, 360, 720, 1440] as const;

export interface FeedSettingsInput {
  parent_id?: string;
  include?: string[];
  exclude?: string[];
  interval_minutes?: number;
}

export const listFeeds = (signal?: AbortSignal) => haul.call('listFeeds', { signal });
export const createFeed = (body: FeedSettingsInput & { url: string; existing?: 'fetch' | 'skip' }) => haul.call('createFeed', { body });
export const updateFeed = (id: string, body: FeedSettingsInput & { paused?: boolean }) => haul.call('updateFeed', { params: { id }, body });
export const deleteFeed = (id: string) => haul.call('deleteFeed', { params: { id } });
export const listFeedItems = (id: string, pageToken: string, signal?: AbortSignal) =>
  haul.call('listFeedItems', { params: { id }, query: { limit: 100, page_token: pageToken || undefined }, signal });
export const fetchFeedItems = (id: string, ids: string[]) => haul.call('fetchFeedItems', { params: { id }, body: { ids } });

/** Patterns as typed: one a line (a regular expression may hold commas), blank lines left out. */
export const parsePatterns = (text: string): string[] =>
  text
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean);
