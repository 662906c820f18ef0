import type { Kysely } from 'kysely';

/** The request that created a task, so the worker's log lines for it carry the same id (ops/request-id.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('request_id', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
