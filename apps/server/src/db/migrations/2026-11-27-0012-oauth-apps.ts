import type { Kysely } from 'kysely';

/**
 * Third-party apps (OAuth 2.0 authorization code with PKCE): the clients the operator registered, the one-minute codes
 * a person's consent yields, the consents themselves, and which sessions belong to an app and what they may do. Every
 * row of a person goes with the account (cascade); every row of a client goes with the client.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // SHA-256 of the secret of a confidential client; null for a public one (a native app, a script).
    .addColumn('secret_hash', 'text')
    // JSON array of the redirect URIs, compared exactly.
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    // The session the code was exchanged for: a second use of the code ends it (RFC 6749 §4.1.2).
    .addColumn('session_id', 'text')
    .execute();
  await db.schema.createIndex('oauth_codes_expires').on('oauth_codes').column('expires_at').execute();
  await db.schema.createIndex('oauth_codes_user').on('oauth_codes').columns(['user_id', 'client_id']).execute();

  await db.schema
    .createTable('oauth_consents')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_consents_pk', ['user_id', 'client_id'])
    .execute();
  await db.schema.createIndex('oauth_consents_client').on('oauth_consents').column('client_id').execute();

  // An app's sessions: null for the person's own sign-ins. Deleting the client ends them (and their refresh tokens).
  await db.schema.alterTable('sessions').addColumn('client_id', 'text', (c) => c.references('oauth_clients.id').onDelete('cascade')).execute();
  await db.schema.alterTable('sessions').addColumn('scope', 'text').execute();
  await db.schema.createIndex('sessions_client').on('sessions').columns(['client_id', 'user_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
