import type { Kysely } from 'kysely';

/**
 * Sign-in providers: which OpenID Connect identity (issuer and subject: the identity as the specification defines it)
 * opens which account, and the short-lived state of a sign-in begun at a provider (its PKCE verifier and nonce), kept
 * until the browser comes back with the code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('provider_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Erased with the account.
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // One account per identity, and one identity per provider in an account.
  await db.schema.createIndex('provider_links_identity').on('provider_links').columns(['issuer', 'subject']).unique().execute();
  await db.schema.createIndex('provider_links_user').on('provider_links').columns(['user_id', 'provider_id']).unique().execute();

  await db.schema
    .createTable('provider_states')
    // SHA-256 of the client's state: a row read from the database cannot be replayed as a state.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // When the code was traded (each state trades once), and when its provider token was spent (once).
    .addColumn('exchanged_at', 'bigint')
    .addColumn('spent_at', 'bigint')
    .execute();
  await db.schema.createIndex('provider_states_expires').on('provider_states').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
