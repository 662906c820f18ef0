import type { Kysely } from 'kysely';

/**
 * Whose play (or upload) queued each transcode: the media worker serves accounts in turns (tasks/turns.ts), so one
 * account's hundred new videos do not keep another's first play waiting. Jobs queued before have none ('').
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('media_jobs').addColumn('user_id', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('media_jobs').addColumn('claimed_time', 'bigint').execute();
  await db.schema.createIndex('media_jobs_user_phase').on('media_jobs').columns(['user_id', 'phase']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
