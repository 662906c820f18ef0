import type { Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn): each account's registered credentials (the public key, the signature counter, how the
 * authenticator is reached) and the challenges handed out to register or sign in with one. A challenge is kept by the
 * SHA-256 of its value, lives five minutes and is deleted when spent, so every process sees it used once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url, as the browser names it; unique across accounts (an authenticator makes a new id per registration).
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    // A JSON array of the transports the browser reported (internal, hybrid, usb…), '[]' when none.
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Whether the credential may be synced to other devices (backup eligible), as the authenticator said.
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('passkey_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // register (bound to the account and session that asked, after sudo) or sign_in (anyone's, before any session).
    .addColumn('purpose', 'text', (c) => c.notNull())
    // Gone with the account (a registration's challenge names it; a sign-in's names nobody).
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
