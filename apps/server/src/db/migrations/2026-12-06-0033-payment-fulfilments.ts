import { sql, type Kysely } from 'kysely';

/**
 * One grant per provider payment: a payment (a Stripe invoice or payment intent, a PayPal capture or sale, a sandbox
 * checkout) is fulfilled once, whatever number of notifications, under whatever event ids, tell of it. The primary key
 * is what two deliveries racing in two processes collide on. Orders fulfilled before this key existed are entered
 * once per payment, so a late re-delivery of one of their payments grants nothing either.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_fulfilments')
    .addColumn('provider', 'text', (c) => c.notNull())
    // The provider's id of the payment (invoice, payment intent, capture, sale; the checkout when it names no payment).
    .addColumn('payment_ref', 'text', (c) => c.notNull())
    // The order it fulfilled; no foreign key, since the key is taken before a renewal's order is written.
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_fulfilments_pk', ['provider', 'payment_ref'])
    .execute();
  await sql`
    INSERT INTO payment_fulfilments (provider, payment_ref, order_id, created_at)
    SELECT provider, provider_ref, MIN(id), MIN(fulfilled_at) FROM orders
    WHERE fulfilled_at IS NOT NULL AND provider_ref <> ''
    GROUP BY provider, provider_ref`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
