import type { Kysely } from 'kysely';

/**
 * WebDAV: app passwords (one per device, SHA-256 of a random secret), dead properties set through PROPPATCH, and
 * locks, kept here so they hold across every process of a site.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_passwords')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // SHA-256 of the password (at least 128 random bits): the password itself is shown once, when made.
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('app_passwords_user').on('app_passwords').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('dav_props')
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('ns', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // The property element as XML, namespaces declared on it, so it reads back as it was set.
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_props_pk', ['file_id', 'ns', 'name'])
    .execute();

  await db.schema
    .createTable('dav_locks')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The locked path from the top of the drive ("/a/b"; "" for the top), NFC, as paths.ts parses it.
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('depth', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('timeout_s', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_locks_user').on('dav_locks').columns(['user_id', 'path']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
