import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { queryClient } from '../db/fair-pool.js';
import { clientKey, FairTurns, installFairTurns, SLICE_MS } from './fair-turns.js';

/** Keeps the thread busy for `ms`, as a request's synchronous work (a SQLite query, serialising its answer) does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('fair turns', () => {
  it('lets a request run at once on an idle server', async () => {
    const turns = new FairTurns();
    expect(turns.admit('a')).toBeUndefined();
    await turn();
    await turn();
    expect(turns.admit('b')).toBeUndefined();
    expect(turns.waiting).toBe(0);
  });

  it('past the slice of a turn, requests wait, and clients are served in rotation', async () => {
    const turns = new FairTurns();
    const served: string[] = [];
    const all: Promise<void>[] = [];
    const request = (client: string) => {
      const wait = turns.admit(client);
      const run = () => {
        served.push(client);
        busy(2);
      };
      if (wait) all.push(wait.then(run));
      else run();
    };
    // One burst, as one turn of the loop reads it: the greedy client's 30 requests, then the quiet one's.
    for (let i = 0; i < 30; i++) request('greedy');
    request('quiet');
    const ranAtOnce = served.length;
    expect(ranAtOnce).toBeLessThanOrEqual(Math.ceil(SLICE_MS / 2) + 1);
    expect(turns.waiting).toBe(31 - ranAtOnce);
    await Promise.all(all);
    // The quiet request went ahead of the greedy client's backlog: second in the rotation, after one greedy request.
    expect(served.indexOf('quiet')).toBe(ranAtOnce + 1);
    expect(served.filter((c) => c === 'greedy')).toHaveLength(30);
    expect(turns.waiting).toBe(0);
  });

  it('serves a backlog a slice per turn, so timers and I/O run between slices', async () => {
    const turns = new FairTurns();
    let served = 0;
    const all: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) {
      const wait = turns.admit('greedy');
      const run = () => {
        served++;
        busy(2);
      };
      if (wait) all.push(wait.then(run));
      else run();
    }
    // A timer set now fires in the next turn: with each turn's work bounded, most of the backlog is still waiting.
    const atTimer = await new Promise<number>((r) => setTimeout(() => r(served), 0));
    expect(atTimer).toBeLessThan(20);
    await Promise.all(all);
    expect(served).toBe(40);
  });

  it('in a Fastify app, a quiet client is answered ahead of a busy one’s queued requests', async () => {
    const app = Fastify();
    installFairTurns(app, () => undefined, { queries: false });
    app.get('/work', async () => {
      busy(2);
      return { ok: true };
    });
    await app.ready();
    const done: string[] = [];
    const call = (who: string) =>
      app.inject({ method: 'GET', url: '/work', headers: { authorization: `Bearer ${who}` } }).then((res) => {
        expect(res.statusCode).toBe(200);
        done.push(who);
      });
    const calls = Array.from({ length: 40 }, () => call('greedy'));
    calls.push(call('quiet'));
    await Promise.all(calls);
    expect(done.indexOf('quiet')).toBeLessThan(10);
    await app.close();
  });

  it('groups requests by the account of a verified token, else by the credentials sent, else by address', () => {
    const known: Record<string, string> = { 'tok-a1': 'alice', 'tok-a2': 'alice', 'tok-b': 'bob' };
    const key = (headers: Record<string, string>, ip = '203.0.113.7') => clientKey({ headers, ip } as unknown as FastifyRequest, (t) => known[t]);
    // Two sessions of one account share a queue; another account has its own.
    expect(key({ authorization: 'Bearer tok-a1' })).toBe(key({ authorization: 'bearer  tok-a2 ' }));
    expect(key({ authorization: 'Bearer tok-b' })).not.toBe(key({ authorization: 'Bearer tok-a1' }));
    // A token not verified yet (or forged) is a queue of its own, never an account's.
    expect(key({ authorization: 'Bearer tok-new' })).toBe('Bearer tok-new');
    expect(key({ authorization: 'Basic YWxpY2U6cHc=' })).toBe('Basic YWxpY2U6cHc=');
    // No credentials: the address, whoever it was made for (signed links, share pages).
    expect(key({}, '198.51.100.1')).not.toBe(key({}, '198.51.100.2'));
    expect(key({}, '198.51.100.1')).toBe(key({}, '198.51.100.1'));
  });

  it('keeps the request’s client for its database queries, through a request body too', async () => {
    const app = Fastify();
    installFairTurns(app, (t) => (t === 'tok-a' ? 'alice' : undefined), { queries: true });
    app.post('/echo', async (req) => {
      await new Promise((r) => setTimeout(r, 1));
      return { client: queryClient.getStore(), body: req.body };
    });
    await app.ready();
    const post = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/echo', headers, payload: { n: 1 } }).then((r) => r.json());
    expect(await post({ authorization: 'Bearer tok-a' })).toEqual({ client: 'account:alice', body: { n: 1 } });
    expect(await post({ authorization: 'Bearer tok-new' })).toEqual({ client: 'Bearer tok-new', body: { n: 1 } });
    expect(queryClient.getStore()).toBeUndefined();
    await app.close();
    // On SQLite there is no pool to share: nothing is kept.
    const plain = Fastify();
    installFairTurns(plain, () => 'alice', { queries: false });
    plain.get('/client', async () => ({ client: queryClient.getStore() ?? null }));
    expect((await plain.inject({ method: 'GET', url: '/client', headers: { authorization: 'Bearer tok-a' } })).json()).toEqual({ client: null });
    await plain.close();
  });
});
