import type { Kysely } from 'kysely';

/**
 * New accounts' premium trials: one row per address that has had one, keyed by the SHA-256 of the normalised address
 * (never the address, never the account), so a trial is given once per address. The rows outlive the accounts: an
 * account deleted and made again with the same address finds its row and gets no second trial.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('trials')
    .addColumn('email_hash', 'text', (c) => c.primaryKey())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
