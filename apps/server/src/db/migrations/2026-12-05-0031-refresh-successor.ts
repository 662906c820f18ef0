import type { Kysely } from 'kysely';

/**
 * Which refresh token replaced each used one: a use of a just-rotated token within the grace window (a client whose
 * answer was lost) takes over from that successor instead of ending the session, and only while it is unused.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('replaced_by', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
