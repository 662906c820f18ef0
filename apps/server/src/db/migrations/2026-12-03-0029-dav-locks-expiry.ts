import type { Kysely } from 'kysely';

/** The hourly sweep of expired WebDAV locks deletes by expiry across every account: an index, not a scan of them all. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('dav_locks_expires').on('dav_locks').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
