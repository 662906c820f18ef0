import type { Kysely } from 'kysely';

/**
 * The console's plans and money: a redeem code can be revoked (revoked_at; redeeming then answers what an expired
 * code does, and the list still says it was revoked rather than expired). Orders and codes gain an index on
 * (created_at, id), so the console's newest-first pages of every account's orders and of all codes read no more than
 * a page.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('redeem_codes').addColumn('revoked_at', 'bigint').execute();
  await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('redeem_codes_created').on('redeem_codes').columns(['created_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
