import type { Kysely } from 'kysely';

/**
 * E-mail verification codes (stored as a keyed hash, never plain) with the one-time token a right code is exchanged
 * for, and the outbox: mail kept in the database when no SMTP server is configured, for an operator to read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('usage', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    // The account the code was sent for, when one was known at the time (null for sign-up and unknown addresses).
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('token_expires_at', 'bigint')
    .addColumn('token_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('verifications_created').on('verifications').column('created_at').execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_outbox_created').on('mail_outbox').column('created_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
