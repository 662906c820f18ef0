/**
 * Named (server-side prepared) statements on PostgreSQL, for the few queries every request runs.
 *
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it on each call. A query marked here is sent under
 * a name instead: the first use on a connection prepares it, later ones bind and run it, and the pooled connection is
 * held that much less (bench/README.md, "listing: two round trips"). Mark only reads run outside a transaction whose
 * one plan fits every value (a primary-key lookup, a folder's walk along its index): after five runs PostgreSQL may
 * keep one generic plan for a named statement. A prepared `SELECT *` fails with "cached plan must not change result
 * type" once another process's migration adds a column; such a query is run again unnamed, and the next use prepares
 * it under a new name. SQLite ignores the mark.
 */
import type { CompiledQuery } from 'kysely';

/** Marked SQL texts and their names, the same in every connection of the process. */
const names = new Map<string, string>();
let made = 0;

/** Marks `query`'s SQL to be sent as a named statement on PostgreSQL; returns the query as it was. */
export function namedStatement<T>(query: CompiledQuery<T>): CompiledQuery<T> {
  if (!names.has(query.sql)) names.set(query.sql, `haul_${++made}`);
  return query;
}

type Query = (...args: unknown[]) => unknown;
/** PostgreSQL's feature_not_supported, which "cached plan must not change result type" is. */
const STALE_PLAN = '0A000';

/**
 * Sends the marked queries of a pg client (one connection) under their names. Kysely calls `query(text, values)`;
 * any other form passes through as it is.
 */
export function nameMarkedQueries(client: { query: Query }): void {
  const query = client.query;
  client.query = function (this: unknown, ...args: unknown[]) {
    const text = args.length === 2 && typeof args[0] === 'string' ? args[0] : undefined;
    const name = text === undefined ? undefined : names.get(text);
    if (!name) return query.apply(this, args);
    return (query.call(this, { name, text, values: args[1] }) as Promise<unknown>).catch((err: { code?: string }) => {
      if (err?.code !== STALE_PLAN) throw err;
      if (names.get(text!) === name) names.set(text!, `haul_${++made}`);
      return query.apply(this, args);
    });
  } as Query;
}
