import type { Kysely } from 'kysely';

/**
 * The console's list of every invitation, newest first: an index on (created_at, id), so each page reads no more than
 * a page however many accounts were invited.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('invitations_created').on('invitations').columns(['created_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
