import type { Kysely } from 'kysely';

/**
 * Deleted accounts: the moment the owner (or an operator) deleted the account. From then on nothing signs in or opens
 * as it, its address is free, and the periodic jobs erase what it had until the row itself goes, last.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'bigint').execute();
  // The jobs look for accounts whose erasure is unfinished; an index keeps that from reading every account.
  await db.schema.createIndex('users_deleted').on('users').column('deleted_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
