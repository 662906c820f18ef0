import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { fastRowsDatabase } from './sqlite-rows.js';

const open: SQLite.Database[] = [];
afterEach(() => open.splice(0).forEach((d) => d.close()));

function fixture() {
  const sqlite = new SQLite(':memory:');
  open.push(sqlite);
  sqlite.exec(`
    CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, r REAL, b BLOB, z TEXT);
    CREATE TABLE u (id TEXT PRIMARY KEY, n INTEGER);
    INSERT INTO t VALUES ('a', 1, 1.5, x'00ff', NULL), ('b', 9007199254740991, -0.25, NULL, 'zed'), ('c', -3, 0, x'', '');
    INSERT INTO u VALUES ('a', 100), ('b', 200);
  `);
  return { sqlite, fast: fastRowsDatabase(sqlite) };
}

/** The same statement through the driver's own row objects and through ours. */
function both(sqlText: string, params: unknown[] = []) {
  const { sqlite, fast } = fixture();
  return { driver: sqlite.prepare(sqlText).all(params), ours: fast.prepare(sqlText).all(params) };
}

describe('rows read as arrays and built in JavaScript', () => {
  it('are the driver’s rows: values, types and key order', () => {
    const { driver, ours } = both('SELECT * FROM t WHERE n > ? ORDER BY id', [-10]);
    expect(ours).toEqual(driver);
    expect(ours).toHaveLength(3);
    for (const [i, row] of ours.entries()) expect(Object.keys(row as object)).toEqual(Object.keys(driver[i] as object));
    expect((ours[0] as { b: Buffer }).b).toEqual(Buffer.from([0, 255]));
    expect((ours[1] as { n: number }).n).toBe(9007199254740991);
  });

  it('keeps the last of two columns with one name, as the driver does, and an empty result', () => {
    const joined = both('SELECT t.n, u.n FROM t JOIN u ON u.id = t.id ORDER BY t.id');
    expect(joined.ours).toEqual(joined.driver);
    expect(joined.ours).toEqual([{ n: 100 }, { n: 200 }]);
    expect(both('SELECT * FROM t WHERE id = ?', ['none']).ours).toEqual([]);
  });

  it('leaves a column named __proto__ to the driver (as a key, not the prototype)', () => {
    const { driver, ours } = both('SELECT id AS "__proto__", n FROM t ORDER BY id LIMIT 1');
    expect(ours).toEqual(driver);
    expect(Object.getPrototypeOf(ours[0])).toBe(Object.prototype);
  });

  it('answers writes, RETURNING and iteration through Kysely as before', async () => {
    const { fast, sqlite } = fixture();
    const db = new Kysely<{ t: { id: string; n: number; r: number; b: Buffer; z: string }; u: { id: string; n: number } }>({ dialect: new SqliteDialect({ database: fast }) });
    const inserted = await db.insertInto('u').values({ id: 'c', n: 300 }).returningAll().execute();
    expect(inserted).toEqual([{ id: 'c', n: 300 }]);
    const updated = await db.updateTable('u').set({ n: 301 }).where('id', '=', 'c').executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(1);
    expect(await db.selectFrom('u').selectAll().orderBy('id').execute()).toEqual(sqlite.prepare('SELECT * FROM u ORDER BY id').all());
    const streamed: unknown[] = [];
    for await (const row of db.selectFrom('t').select(['id', 'z']).orderBy('id').stream()) streamed.push(row);
    expect(streamed).toEqual([{ id: 'a', z: null }, { id: 'b', z: 'zed' }, { id: 'c', z: '' }]);
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });
});
