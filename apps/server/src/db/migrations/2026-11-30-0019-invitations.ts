import type { Kysely } from 'kysely';

/**
 * Invitations: each account's invite code, who signed up with whose code (and whether both were rewarded, or why not),
 * and the counters that cap rewards per inviter per month and per sign-up address per day.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invite_codes')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // No foreign keys: an invitation outlives either account, so deleting and signing up again earns nothing twice.
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('inviter_id', 'text', (c) => c.notNull())
    // One invitation per account, ever.
    .addColumn('invitee_id', 'text', (c) => c.notNull().unique())
    // What the inviter sees of the invited (an***@example.com): the full address is never kept here.
    .addColumn('invitee_label', 'text', (c) => c.notNull())
    // SHA-256 of the invited address: an address rewarded once is not rewarded again under a new account.
    .addColumn('invitee_email_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('reward_days', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rewarded_at', 'bigint')
    // '' when rewarded; else rewards_off, invited_before, same_address, address_limit or monthly_limit.
    .addColumn('unrewarded_reason', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('invitations_inviter').on('invitations').columns(['inviter_id', 'created_at']).execute();
  await db.schema.createIndex('invitations_email').on('invitations').columns(['invitee_email_hash']).execute();

  // Rewards taken per scope and period, changed only by conditional increments (see invitations/reward-slots.ts).
  await db.schema
    .createTable('invite_reward_counts')
    // u:<inviter id> (per month) or a:<SHA-256 of the sign-up address> (per day).
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('invite_reward_counts_pk', ['scope', 'period'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
