import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Ids order byte-wise on PostgreSQL too. Pages of the sync are merged and compared in JavaScript (code-unit order,
 * the same as bytes for ids' ASCII), while a database created with another collation (en_US.UTF-8, ICU) ordered the
 * id columns by it: `a_B` and `a-c` swap places, and items sharing a change time were skipped or repeated between
 * pages. Every id a keyset cursor reads is set to the "C" collation, and the indexes holding it are rebuilt to
 * match (the table itself is not rewritten). SQLite compares text with BINARY already.
 */
const CURSOR_IDS: [table: string, column: string][] = [
  ['files', 'id'],
  ['file_tombstones', 'file_id'],
  ['events', 'id'],
  ['tasks', 'id'],
  ['shares', 'id'],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [table, column] of CURSOR_IDS) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.ref(column)} TYPE text COLLATE "C"`.execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
