import type { Kysely } from 'kysely';

/**
 * Unpacking tasks: what each one unpacks and how far it got, beside its row in tasks (which the transfer list reads).
 * The row goes with its task; the sealed password goes when the task ends.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('archive_jobs')
    .addColumn('task_id', 'text', (c) => c.primaryKey().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull())
    // The archive's content: the job reads these bytes even if the file is renamed or moved meanwhile.
    .addColumn('archive_hash', 'text', (c) => c.notNull())
    .addColumn('archive_name', 'text', (c) => c.notNull())
    // AES-256-GCM under a key derived from the server's secret; '' when the archive has none.
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('encoding', 'text', (c) => c.notNull().defaultTo(''))
    // Where the entries land: a folder id ('' the root), and the new folder to make there ('' none).
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('folder_name', 'text', (c) => c.notNull().defaultTo(''))
    // JSON: the entries to unpack ({p: path in the archive, t: target segments, s: size, d: folder}).
    .addColumn('entries', 'text', (c) => c.notNull())
    // JSON: what is unpacked so far, by entry index: [content hash, size].
    .addColumn('done', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
