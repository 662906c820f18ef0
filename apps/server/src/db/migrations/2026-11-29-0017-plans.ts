import type { Kysely } from 'kysely';

/**
 * Plans: what an account was granted (premium time, storage, transfer) and from where; redeem codes (kept as hashes);
 * the operator's catalogue; orders, the provider notifications already applied, and subscriptions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plan_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // premium (amount: ms), storage or transfer (amount: bytes).
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    // Null: for good (storage bought once).
    .addColumn('ends_at', 'bigint')
    // order, code, invite or admin; source_id names the row it came from.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('plan_grants_user').on('plan_grants').columns(['user_id', 'kind']).execute();
  await db.schema.createIndex('plan_grants_source').on('plan_grants').columns(['source', 'source_id']).execute();

  await db.schema
    .createTable('redeem_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('grant_spec', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('max_uses', 'integer', (c) => c.notNull())
    .addColumn('used_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('redeem_code_uses')
    .addColumn('code_id', 'text', (c) => c.notNull().references('redeem_codes.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('redeem_code_uses_pk', ['code_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // premium, storage or transfer: which page offers it.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('grant_spec', 'text', (c) => c.notNull())
    .addColumn('price_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // '' (paid once), month or year.
    .addColumn('interval', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    // pending, succeed, failed, close or refunded.
    .addColumn('status', 'text', (c) => c.notNull())
    // What was sold, copied from the product when ordered: a later price change does not rewrite an order.
    .addColumn('grant_spec', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('provider_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subscription_id', 'text', (c) => c.notNull().defaultTo(''))
    // The failed task to continue after payment (seed 000 §4).
    .addColumn('task_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('fulfilled_at', 'bigint')
    .execute();
  await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('orders_provider_ref').on('orders').columns(['provider', 'provider_ref']).execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text', (c) => c.notNull().defaultTo(''))
    // active, canceled (runs to the period's end) or ended.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_period_end', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user').on('subscriptions').columns(['user_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
