/** Feeds and the items they have seen; see the 0048 migration. */
export interface FeedsTable {
  id: string;
  user_id: string;
  url: string;
  /** SHA-256 of url, hex: one subscription per account and feed. */
  url_key: string;
  title: string;
  parent_id: string;
  /** JSON arrays of patterns. */
  include: string;
  exclude: string;
  interval_minutes: number;
  paused: number;
  etag: string;
  last_modified: string;
  last_checked_at: number | null;
  next_check_at: number;
  /** Until when a worker holds the feed (0: nobody). */
  lease_until: number;
  failures: number;
  last_error: string;
  created_at: number;
}

export interface FeedItemsTable {
  id: string;
  feed_id: string;
  user_id: string;
  guid_key: string | null;
  link_key: string | null;
  hash_key: string | null;
  title: string;
  link: string;
  kind: 'http' | 'magnet' | 'torrent' | 'none';
  state: 'matched' | 'skipped' | 'fetched' | 'failed';
  why: string;
  task_id: string;
  published_at: number | null;
  seen_at: number;
}
