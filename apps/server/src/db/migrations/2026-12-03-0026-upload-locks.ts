import type { Kysely } from 'kysely';

/**
 * Who is writing to an upload right now (uploads/upload-locker.ts): a lease in the database, so two API processes
 * never append to the same upload at once. `wanted` is set by a request waiting for it: the holder then lets go, as
 * tus asks of a lock whose client has moved on.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_locks')
    .addColumn('upload_id', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('wanted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
