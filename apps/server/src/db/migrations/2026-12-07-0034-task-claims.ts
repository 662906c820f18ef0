import type { Kysely } from 'kysely';

/**
 * When each task was last claimed by a worker: the queue serves the account served longest ago first, so accounts take
 * turns at background work instead of waiting behind one account's long queue.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('claimed_time', 'bigint').execute();
  await db.schema.createIndex('tasks_type_user_claimed').on('tasks').columns(['type', 'user_id', 'claimed_time']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
