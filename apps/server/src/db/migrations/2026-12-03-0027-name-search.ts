import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * An index for searching by part of a name (`filters={"name":{"contains":…}}`).
 * SQLite: an FTS5 table with the trigram tokenizer over files.name (external content: it holds only the index, the
 * names stay in files), kept in step by triggers on insert, rename and delete. PostgreSQL: a pg_trgm GIN index on
 * lower(name), the very expression the search compares; when the extension cannot be created here, boot tries again
 * and logs why (see name-search.ts), and the search works as before without it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // A failed CREATE EXTENSION would abort the whole migration transaction: try it behind a savepoint.
    await sql`SAVEPOINT name_search`.execute(db);
    try {
      // As files/name-search.ts creates it at boot; written out here, as a migration stays as it was when it ran.
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
      await sql`CREATE INDEX IF NOT EXISTS files_name_trgm ON files USING gin (lower(name) gin_trgm_ops)`.execute(db);
      await sql`RELEASE SAVEPOINT name_search`.execute(db);
    } catch {
      await sql`ROLLBACK TO SAVEPOINT name_search`.execute(db);
    }
    return;
  }
  await sql`CREATE VIRTUAL TABLE files_name_fts USING fts5(name, content='files', content_rowid='rowid', tokenize='trigram')`.execute(db);
  await sql`CREATE TRIGGER files_name_fts_insert AFTER INSERT ON files BEGIN
    INSERT INTO files_name_fts (rowid, name) VALUES (new.rowid, new.name);
  END`.execute(db);
  await sql`CREATE TRIGGER files_name_fts_delete AFTER DELETE ON files BEGIN
    INSERT INTO files_name_fts (files_name_fts, rowid, name) VALUES ('delete', old.rowid, old.name);
  END`.execute(db);
  await sql`CREATE TRIGGER files_name_fts_rename AFTER UPDATE OF name ON files BEGIN
    INSERT INTO files_name_fts (files_name_fts, rowid, name) VALUES ('delete', old.rowid, old.name);
    INSERT INTO files_name_fts (rowid, name) VALUES (new.rowid, new.name);
  END`.execute(db);
  await sql`INSERT INTO files_name_fts (files_name_fts) VALUES ('rebuild')`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
