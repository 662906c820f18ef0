/**
 * better-sqlite3 behind Kysely, with result rows built in JavaScript.
 *
 * better-sqlite3 builds each row object through V8's C++ API, one property at a time: for a page of 100 `files` rows
 * that was half the query (555 µs against 265 µs for the same rows as arrays; bench/README.md, "listing: rows read as
 * arrays"). Here a reading statement returns arrays and each is turned into an object by a function compiled once per
 * column list: one object literal, so V8 gives every row the same shape at the cost of an allocation. The rows are
 * the same objects with the same values and key order.
 */
import type BetterSqlite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

type Build = (values: unknown[]) => unknown;

/** Row builders by column list; the app's select lists are few, the bound only guards against a runaway. */
const builders = new Map<string, Build>();
const MAX_BUILDERS = 1000;

function builderFor(names: string[]): Build | null {
  const key = names.join('\0');
  let build = builders.get(key);
  if (build) return build;
  // `__proto__` as a literal key would set the prototype, not a property: such a row is left to the driver.
  if (names.includes('__proto__')) return null;
  if (builders.size >= MAX_BUILDERS) builders.clear();
  // The names are the columns' own, written as JSON strings: nothing in them is code. Repeated names keep the last
  // value, as the driver's objects do.
  build = new Function('v', `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`) as Build;
  builders.set(key, build);
  return build;
}

/** Kysely's view of `sqlite`, reading rows as arrays and building them here. */
export function fastRowsDatabase(sqlite: BetterSqlite.Database): SqliteDatabase {
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteStatement {
      const stmt = sqlite.prepare(sql);
      if (!stmt.reader) return stmt;
      return {
        reader: true,
        all(parameters) {
          const build = builderFor(stmt.columns().map((c) => c.name));
          if (!build) return stmt.all(parameters);
          return (stmt.raw(true).all(parameters) as unknown[][]).map(build);
        },
        run: (parameters) => stmt.run(parameters),
        iterate: (parameters) => stmt.iterate(parameters),
      };
    },
  };
}
