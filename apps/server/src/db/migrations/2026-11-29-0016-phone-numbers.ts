import type { Kysely } from 'kysely';

/**
 * Phone numbers and profiles: an account's phone number (E.164, for signing in and codes by text message; unique
 * while set, any number of accounts may have none), its built-in avatar, and which channel a kept outbox message was
 * meant for, so text messages wait in the same outbox as mail when no gateway is configured.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('phone_number', 'text').execute();
  // Both databases let any number of rows share NULL under a unique index.
  await db.schema.createIndex('users_phone_number').on('users').column('phone_number').unique().execute();
  // `avatar:N`, one of the pictures the web app ships; never an address a user typed.
  await db.schema.alterTable('users').addColumn('picture', 'text').execute();
  await db.schema.alterTable('mail_outbox').addColumn('channel', 'text', (c) => c.notNull().defaultTo('mail')).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
