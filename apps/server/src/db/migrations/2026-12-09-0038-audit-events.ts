import type { Kysely } from 'kysely';

/**
 * The audit log: what operators did to accounts and the security events of each account (a sign-in from a new
 * network, a password, address or phone change, two-factor on or off, an app password or app allowed, a deletion),
 * with when, who, from where and what changed; never a secret. Read by account (the person's own list, the operator's
 * filter) and by time (the operator's list, the retention purge). Also the index the operator's account list pages by.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('time', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_subject').on('audit_events').columns(['subject_id', 'time', 'id']).execute();
  await db.schema.createIndex('audit_events_time').on('audit_events').columns(['time', 'id']).execute();
  // The operator's account list pages newest first: an index read, not a sort of every account.
  await db.schema.createIndex('users_created').on('users').columns(['created_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
