import type { Kysely } from 'kysely';

/**
 * Device sign-in (RFC 8628): a TV, a script or the command line asks for a code pair, shows the short user code, and
 * polls with the long device code until the person approves it from a signed-in browser. Both codes are stored as
 * hashes; the poll's pace is kept here so slow_down holds across processes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_code_hash', 'text', (c) => c.notNull().unique())
    // pending → approved or denied; approved → used once the device took its tokens.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    // What the device said it is, and where it asked from: shown on the approval screen.
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('interval_ms', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // A device signed in this way names itself ("Living room TV"); browsers are named from their user agent instead.
  await db.schema.alterTable('sessions').addColumn('device_name', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.createIndex('device_logins_expires').on('device_logins').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
