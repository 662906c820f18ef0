import type { Kysely } from 'kysely';

/**
 * Feeds: RSS and Atom feeds an account follows, checked by workers, and the items each has seen. A feed is claimed by
 * one conditional update of `next_check_at` and `lease_until` (so two workers never read it at once); an item is
 * kept once per feed by each of its keys (guid, link, info hash: SHA-256 hex, as a magnet link may outgrow what a
 * PostgreSQL index entry holds), so an item seen again under any of them is the same item.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feeds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('url_key', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent_id', 'text', (c) => c.notNull().defaultTo(''))
    // JSON arrays of patterns.
    .addColumn('include', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('exclude', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('interval_minutes', 'integer', (c) => c.notNull())
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('etag', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_checked_at', 'bigint')
    .addColumn('next_check_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feeds_user_url').on('feeds').columns(['user_id', 'url_key']).unique().execute();
  await db.schema.createIndex('feeds_due').on('feeds').columns(['paused', 'next_check_at']).execute();

  await db.schema
    .createTable('feed_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('feed_id', 'text', (c) => c.notNull().references('feeds.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('guid_key', 'text')
    .addColumn('link_key', 'text')
    .addColumn('hash_key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('link', 'text', (c) => c.notNull())
    // http, magnet, torrent or none.
    .addColumn('kind', 'text', (c) => c.notNull())
    // matched, skipped, fetched or failed.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('why', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('task_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('published_at', 'bigint')
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  for (const key of ['guid_key', 'link_key', 'hash_key']) {
    await db.schema.createIndex(`feed_items_${key}`).on('feed_items').columns(['feed_id', key]).unique().where(key, 'is not', null).execute();
  }
  await db.schema.createIndex('feed_items_feed_seen').on('feed_items').columns(['feed_id', 'seen_at']).execute();
  await db.schema.createIndex('feed_items_user').on('feed_items').column('user_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
