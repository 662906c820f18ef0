import { type Kysely, sql } from 'kysely';

/**
 * Sessions (one per sign-in; refresh tokens rotate inside one, and a replayed one ends it), disabled accounts, a
 * counter that ends every download link of an account at once, and attempt limits kept in the database so they hold
 * across processes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id', 'ip']).execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema.alterTable('refresh_tokens').addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('cascade')).execute();
  await db.schema.alterTable('refresh_tokens').addColumn('used_at', 'bigint').execute();
  // Each refresh token issued before sessions existed becomes a session of its own.
  await sql`INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at)
            SELECT id, user_id, created_at, created_at, expires_at FROM refresh_tokens`.execute(db);
  await sql`UPDATE refresh_tokens SET session_id = id`.execute(db);
  await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('attempt_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attempt_limits_last').on('attempt_limits').column('last_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
