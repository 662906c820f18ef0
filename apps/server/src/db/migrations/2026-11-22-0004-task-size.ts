import type { Kysely } from 'kysely';

/** Bytes a task moved, for the monthly transfer quotas. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('tasks_user_type_created').on('tasks').columns(['user_id', 'type', 'created_time']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
