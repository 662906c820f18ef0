import type { Kysely } from 'kysely';

/**
 * Bookmarks: links a person kept to fetch later, with what a check of the link found. One per account and link: the
 * link is matched by its SHA-256 (`url_key`), since a magnet link can outgrow what a PostgreSQL index entry holds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bookmarks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('url_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // http, magnet or torrent (a .torrent file behind an http link).
    .addColumn('kind', 'text', (c) => c.notNull())
    // Bytes; null when not known.
    .addColumn('size', 'bigint')
    .addColumn('mime_type', 'text', (c) => c.notNull().defaultTo(''))
    // When a check of the link gave kind, size and type; null when kept unchecked (the kind then guessed from the link).
    .addColumn('checked_at', 'bigint')
    // checker, dialog, extension or file.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bookmarks_user_url').on('bookmarks').columns(['user_id', 'url_key']).unique().execute();
  await db.schema.createIndex('bookmarks_user_created').on('bookmarks').columns(['user_id', 'created_at']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
