/** PostgreSQL's connections in rotation by client (db/fair-pool.ts), on a real cluster and pg's real pool. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../../scripts/pg-cluster.mjs';
import { fairPool, queryClient } from '../src/db/fair-pool.js';

describe('fair pool', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(() => cluster?.stop());

  const open = (size: number, timeoutMs = 5000) => {
    const pool = new pg.Pool({ connectionString: cluster.url, max: size });
    // Idle connections closed when the cluster stops: an unheard 'error' would fail the run.
    pool.on('error', () => undefined);
    return { pool, fair: fairPool(pool, size, timeoutMs) };
  };
  /** A connection as pg's own client (Kysely sees it through a narrower type). */
  const take = async (fair: ReturnType<typeof fairPool>) => (await fair.connect()) as unknown as pg.PoolClient;
  /** Takes a connection for `client`, runs a query, gives it back; notes the order it got its connection in. */
  const use = (fair: ReturnType<typeof fairPool>, client: string, served: string[]) =>
    queryClient.run(client, async () => {
      const conn = await take(fair);
      served.push(client);
      await conn.query('select 1');
      conn.release();
    });

  it('serves waiting clients in rotation, so a quiet one waits behind one of a busy one’s queries, not all of them', async () => {
    const { fair } = open(2);
    // Both connections held, then 20 queries of a busy client and one of a quiet client wait.
    const held = [await take(fair), await take(fair)];
    const served: string[] = [];
    const all = Array.from({ length: 20 }, () => use(fair, 'busy', served));
    all.push(use(fair, 'quiet', served));
    await new Promise((r) => setTimeout(r, 50));
    expect(fair.waiting()).toBe(21);
    for (const conn of held) conn.release();
    await Promise.all(all);
    expect(served.indexOf('quiet')).toBeLessThanOrEqual(2);
    expect(served.filter((c) => c === 'busy')).toHaveLength(20);
    expect(fair.waiting()).toBe(0);
    await fair.end();
  });

  it('hands out no more connections than its size, and gives a turn back once however often release is called', async () => {
    const { pool, fair } = open(3);
    const first = await take(fair);
    first.release();
    // pg refuses a second release; the turn was given back once.
    expect(() => first.release()).toThrow(/already been released/);
    let most = 0;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        queryClient.run(`c${i % 4}`, async () => {
          const conn = await take(fair);
          most = Math.max(most, pool.totalCount - pool.idleCount);
          await conn.query('select pg_sleep(0.01)');
          conn.release();
        }),
      ),
    );
    expect(most).toBe(3);
    // Nothing queued inside pg's own pool: every wait was ours, in rotation.
    expect(pool.waitingCount).toBe(0);
    expect(fair.waiting()).toBe(0);
    await fair.end();
  });

  it('gives up after its timeout with the error of an unreachable database, and serves the next caller after it', async () => {
    const { fair } = open(1, 150);
    const held = await take(fair);
    const late = queryClient.run('late', () => fair.connect());
    await expect(late).rejects.toThrow('timeout exceeded when trying to connect');
    expect(fair.waiting()).toBe(0);
    const next = queryClient.run('next', () => take(fair));
    held.release();
    const conn = await next;
    expect((await conn.query<{ n: number }>('select 2 as n')).rows[0]!.n).toBe(2);
    conn.release();
    await fair.end();
  });

  it('gives the turn back when opening a connection fails', async () => {
    const pool = new pg.Pool({ connectionString: cluster.url.replace(/:\d+\//, ':1/'), max: 1 });
    const fair = fairPool(pool, 1, 2000);
    await expect(fair.connect()).rejects.toThrow(/ECONNREFUSED/);
    // Were the failed turn kept, this second caller would wait out its timeout instead of failing at once the same way.
    await expect(fair.connect()).rejects.toThrow(/ECONNREFUSED/);
    expect(fair.waiting()).toBe(0);
    await fair.end();
  });
});
