/**
 * Search by part of a name, kept fast on a large drive by a trigram index (migration 0027).
 *
 * The match itself does not change: `lower(name) LIKE '%query%'` (list-query.ts) still decides every result, so
 * results, order and paging are exactly those of a plain scan. The index only narrows which rows are looked at.
 * - PostgreSQL: a pg_trgm GIN index on lower(name) serves that LIKE directly; the planner picks it when the word is
 *   rare and the drive's own order when it is common. Without the extension, the same query scans as before.
 * - SQLite: the FTS5 trigram table finds the rows holding the query. SQLite's planner (no statistics) would still
 *   walk the user's whole drive in list order, so when few rows hold the query they are read first, by rowid, into a
 *   materialized CTE that the list query then filters, sorts and pages. When many do (a common word) the walk in
 *   list order fills a page after a few rows and stays as it is. Queries under 3 characters have no trigram: scan.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { AppContext } from '../context.js';
import type { Db, Dialect } from '../db/database.js';
import type { Database } from '../db/schema.js';

/** Past this many rows holding the query (in all accounts), the list order is walked instead of the index hits. */
export const NAME_HITS_MAX = 2000;

/** The pg_trgm index on lower(name); throws when the extension cannot be created (not installed, no privilege). */
export async function createTrigramIndex(db: Db): Promise<void> {
  // pg_trgm is a trusted extension (PostgreSQL 13+): a role with CREATE on the database may create it.
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS files_name_trgm ON files USING gin (lower(name) gin_trgm_ops)`.execute(db);
}

/**
 * At boot on PostgreSQL: when migration 0027 could not create the trigram index (the extension was missing or not
 * allowed), tries again, and logs once why not. Search works without it, only slower on a large drive.
 */
export async function ensureNameSearchIndex(db: Db, dialect: Dialect, log: FastifyBaseLogger): Promise<boolean> {
  if (dialect !== 'postgres') return true;
  const found = await sql<{ n: number }>`SELECT 1 AS n FROM pg_indexes WHERE indexname = 'files_name_trgm'`.execute(db);
  if (found.rows.length) return true;
  try {
    await createTrigramIndex(db);
    return true;
  } catch (err) {
    log.warn(
      `name search runs without its trigram index (slower on large drives): ${(err as Error).message}. ` +
        'Install PostgreSQL\'s contrib extensions (pg_trgm) or run "CREATE EXTENSION pg_trgm" as a superuser, then restart.',
    );
    return false;
  }
}

/** The FTS5 phrase matching `query` as a plain substring (quotes doubled; %, _ and the rest are literal). */
export function ftsPhrase(query: string): string {
  return `"${query.replace(/"/g, '""')}"`;
}

type FilesQuery = SelectQueryBuilder<Database, 'files', object>;

/**
 * Where the list query reads files from when it searches by name: the files table itself, or on SQLite, when the
 * trigram index finds few rows holding the query, just those rows. `contains` is the query as typed; it is folded
 * here exactly as the LIKE folds it, so the index never misses a row the LIKE keeps.
 */
export async function filesForNameSearch(ctx: AppContext, contains: string | undefined): Promise<FilesQuery> {
  const plain = ctx.db.selectFrom('files') as unknown as FilesQuery;
  if (!contains || ctx.dialect !== 'sqlite') return plain;
  const folded = contains.toLowerCase();
  if ([...folded].length < 3) return plain;
  const phrase = ftsPhrase(folded);
  const probe = await sql<{ n: number }>`SELECT count(*) AS n FROM
      (SELECT 1 FROM files_name_fts WHERE files_name_fts MATCH ${phrase} LIMIT ${NAME_HITS_MAX + 1})`.execute(ctx.db);
  if (Number(probe.rows[0]?.n ?? 0) > NAME_HITS_MAX) return plain;
  return ctx.db
    .with(
      (cte) => cte('name_hits').materialized(),
      (db) =>
        db
          .selectFrom('files')
          .selectAll()
          .where(sql<boolean>`rowid IN (SELECT rowid FROM files_name_fts WHERE files_name_fts MATCH ${phrase})`),
    )
    .selectFrom('name_hits as files') as unknown as FilesQuery;
}
