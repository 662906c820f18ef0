/**
 * PostgreSQL's connections handed out in rotation by client when every one is busy.
 *
 * pg's pool queues callers first come, first served. Under a flood of one account's listings (bench/README.md, "load:
 * PostgreSQL's pool") ~170 queries waited at any time, so another account's upload waited ~150 ms behind all of them
 * for each of its queries, although the turns between clients (http/fair-turns.ts) had let its request in promptly.
 * Here a caller that finds every connection taken waits in its client's queue, and the queues are served in rotation,
 * as the turns are: one client's backlog delays another's query by one of its own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** The client (http/fair-turns.ts's key) a request's queries run for; background work has none and shares one queue. */
export const queryClient = new AsyncLocalStorage<string>();

/** As pg words it, so a wait that runs out is answered 503 like any unreachable database (http/errors.ts). */
const TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

interface Waiter {
  client: string;
  grant(): void;
}

export interface FairPool extends PostgresPool {
  /** Callers waiting for a connection now. */
  waiting(): number;
}

/**
 * `pool` (pg, with at least `size` connections) behind a queue per client. A caller waits at most `timeoutMs` for its
 * turn, then pg's own connect (with its own timeout) opens or hands over the connection.
 */
export function fairPool(pool: pg.Pool, size: number, timeoutMs: number): FairPool {
  /** Connections handed out, or being opened, by this wrapper. */
  let taken = 0;
  let waitingCount = 0;
  /** Waiting callers by client; the Map's order is the rotation (a served client moves to the back). */
  const queues = new Map<string, Waiter[]>();

  const grantNext = () => {
    while (taken < size && waitingCount > 0) {
      const [client, queue] = queues.entries().next().value as [string, Waiter[]];
      const waiter = queue.shift()!;
      queues.delete(client);
      if (queue.length > 0) queues.set(client, queue);
      waitingCount--;
      taken++;
      waiter.grant();
    }
  };

  const turn = (): Promise<void> | undefined => {
    if (taken < size && waitingCount === 0) {
      taken++;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const client = queryClient.getStore() ?? '';
      const waiter: Waiter = {
        client,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const queue = queues.get(client)!;
        queue.splice(queue.indexOf(waiter), 1);
        if (queue.length === 0) queues.delete(client);
        waitingCount--;
        reject(new Error(TIMEOUT_MESSAGE));
      }, timeoutMs);
      const queue = queues.get(client);
      if (queue) queue.push(waiter);
      else queues.set(client, [waiter]);
      waitingCount++;
    });
  };

  const giveBack = () => {
    taken--;
    grantNext();
  };

  return {
    async connect(): Promise<PostgresPoolClient> {
      await turn();
      let conn: pg.PoolClient;
      try {
        conn = await pool.connect();
      } catch (err) {
        giveBack();
        throw err;
      }
      // pg sets a new release on every checkout; ours counts the connection back once, however often it is called.
      const release = conn.release;
      let returned = false;
      conn.release = (err?: Error | boolean) => {
        release.call(conn, err);
        if (returned) return;
        returned = true;
        giveBack();
      };
      return conn;
    },
    end: () => pool.end(),
    waiting: () => waitingCount,
  };
}
