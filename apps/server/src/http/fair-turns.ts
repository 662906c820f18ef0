/**
 * Requests take turns by client, a few milliseconds of work per turn of the event loop.
 *
 * Node reads every socket that is ready in one turn of its loop and runs each request it finds there to its first real
 * wait; libuv (since 1.45) also accepts one new connection per turn. Under a flood of 150 kept-alive connections a turn
 * grew to ~150 ms, so a quiet client's request waited behind all of the flood's (p50 ~185 ms), and its new connection
 * waited in the kernel's queue one turn per connection ahead of it (6-9 s). Here a request that arrives once this turn
 * has spent SLICE_MS waits in a queue of its client, and the queues are served in rotation, SLICE_MS at a time, in later
 * turns: each turn stays short, so connections are accepted and sockets read often, and one client's backlog delays
 * another's request by at most one of its own.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryClient } from '../db/fair-pool.js';
import { installRequestScope } from './request-scope.js';

/** Work started in one turn before later requests wait for the next (ms). */
export const SLICE_MS = 5;

type Wake = () => void;

export class FairTurns {
  /** Waiting requests by client; the Map's order is the rotation (a served client moves to the back). */
  private readonly queues = new Map<string, Wake[]>();
  private waitingCount = 0;
  /** When this turn started admitting requests as they came, or null before the first since the last check phase. */
  private turnStart: number | null = null;
  /** End of the current check phase's slice, or 0 until its first step sets it. */
  private sliceEnd = 0;

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Resolves when `client`'s request may run: undefined (run now) while this turn has time left and nobody waits. */
  admit(client: string): Promise<void> | undefined {
    if (this.waitingCount === 0) {
      const now = performance.now();
      if (this.turnStart === null) {
        this.turnStart = now;
        setImmediate(() => (this.turnStart = null));
      }
      if (now - this.turnStart < this.sliceMs) return undefined;
    }
    return new Promise<void>((resolve) => {
      const queue = this.queues.get(client);
      if (queue) queue.push(resolve);
      else this.queues.set(client, [resolve]);
      this.waitingCount++;
      setImmediate(this.step);
    });
  }

  /** Requests waiting, all clients together. */
  get waiting(): number {
    return this.waitingCount;
  }

  /**
   * One per waiting request, in the check phase. Node runs the microtasks of one immediate before the next, so a woken
   * request has done its synchronous part when the next step reads the clock. Past the slice, a step waits a turn.
   */
  private readonly step = (): void => {
    const now = performance.now();
    if (this.sliceEnd === 0) {
      this.sliceEnd = now + this.sliceMs;
      // Queued during this check phase, so it runs first in the next one: each turn gets a slice of its own.
      setImmediate(() => (this.sliceEnd = 0));
    }
    if (now >= this.sliceEnd) {
      setImmediate(this.step);
      return;
    }
    const [client, queue] = this.queues.entries().next().value as [string, Wake[]];
    const wake = queue.shift()!;
    this.queues.delete(client);
    if (queue.length > 0) this.queues.set(client, queue);
    this.waitingCount--;
    wake();
  };
}

/** The account a bearer token is known to belong to (a token already verified), else undefined. */
export type TokenAccount = (token: string) => string | undefined;

/**
 * Who a request belongs to for turns: the account of a token already verified (all of an account's sessions and apps
 * share one queue), else its credentials as sent (a new token, a WebDAV password), else its address (the client's,
 * behind a trusted proxy). Nothing here is verified, and need not be: an unknown value only puts its own requests in a
 * queue of their own, and joining an account's queue takes one of its tokens.
 */
export function clientKey(req: FastifyRequest, accountOf: TokenAccount): string {
  const h = req.headers;
  if (h.authorization) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(h.authorization);
    const account = bearer ? accountOf(bearer[1]!) : undefined;
    return account === undefined ? h.authorization : `account:${account}`;
  }
  return h.cookie ?? `ip:${req.ip}`;
}

/**
 * The first onRequest hook: every request waits its turn before anything else is done for it. With `queries` (on
 * PostgreSQL) the client is then kept for the request's database queries, which take connections in the same rotation
 * (db/fair-pool.ts); SQLite has no pool to share.
 */
export function installFairTurns(app: FastifyInstance, accountOf: TokenAccount, opts: { queries: boolean }): void {
  const turns = new FairTurns();
  const clients = new WeakMap<FastifyRequest, string>();
  app.addHook('onRequest', (req, _reply, done) => {
    const client = clientKey(req, accountOf);
    if (opts.queries) clients.set(req, client);
    const wait = turns.admit(client);
    if (wait) void wait.then(() => done());
    else done();
  });
  if (opts.queries) installRequestScope(app, queryClient, (req) => clients.get(req)!, 'haul-query-client');
}
