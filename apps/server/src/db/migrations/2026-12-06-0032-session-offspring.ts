import type { Kysely } from 'kysely';

/**
 * What each lasting credential was born from: the session that approved a device sign-in, allowed an app or made an
 * app password. Ending that session from another device (or a refresh-token replay ending it) ends them too, so a
 * stolen session cannot leave a way in behind it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('parent_session_id', 'text').execute();
  await db.schema.alterTable('app_passwords').addColumn('session_id', 'text').execute();
  await db.schema.alterTable('oauth_consents').addColumn('session_id', 'text').execute();
  await db.schema.alterTable('oauth_codes').addColumn('parent_session_id', 'text').execute();
  await db.schema.alterTable('device_logins').addColumn('approved_session_id', 'text').execute();
  await db.schema.createIndex('sessions_parent').on('sessions').columns(['parent_session_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
