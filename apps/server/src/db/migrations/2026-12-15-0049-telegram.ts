import type { Kysely } from 'kysely';

/**
 * The Telegram bot: accounts linked to a Telegram chat, one-time link codes, the one poller's lease and update offset,
 * the updates handled, and the cloud downloads the bot made whose chat is still to be told they ended.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('telegram_links')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // Telegram's user and chat ids, as text (they pass 2^31); never shown back nor logged.
    .addColumn('telegram_user_id', 'text', (c) => c.notNull().unique())
    .addColumn('chat_id', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    // Where what is sent lands; '' for the top of the drive.
    .addColumn('folder_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('linked_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('telegram_link_codes')
    // SHA-256 of the code, hex: the code itself is shown once.
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telegram_link_codes_user').on('telegram_link_codes').column('user_id').execute();
  await db.schema
    .createTable('telegram_poller')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    // The next update_id to ask getUpdates for: every one below it is handled.
    .addColumn('update_offset', 'bigint', (c) => c.notNull().defaultTo(0))
    // The bot's @username from getMe, for the t.me links an API process hands out.
    .addColumn('bot_username', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .createTable('telegram_updates')
    .addColumn('update_id', 'bigint', (c) => c.primaryKey())
    .addColumn('handled_at', 'bigint', (c) => c.notNull())
    .execute();
  // Updates Telegram posted to the webhook (an API process), waiting for the worker that holds the lease.
  await db.schema
    .createTable('telegram_inbox')
    .addColumn('update_id', 'bigint', (c) => c.primaryKey())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('telegram_tasks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // A row is deleted when its chat is told the task ended, before the message goes: told at most once.
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telegram_tasks_user').on('telegram_tasks').column('user_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
