/**
 * GET /healthz (the process answers) and GET /readyz (it can serve: the database and the blob store answer), for
 * load balancers, orchestrators and container health checks. Outside the contract and its auth; the answers name what
 * is failing, never why in detail (a driver's message may name hosts, buckets or users): that goes to the log.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { errorBody } from '@haul/shared';
import type { AppContext } from '../context.js';

/** A probe slower than this counts as failing: a load balancer's own check gives up soon after. */
const PROBE_TIMEOUT_MS = 5000;
/** A hash no blob has (the store is asked whether it has it, which needs it to answer). */
const MISSING_HASH = '0'.repeat(64);

type Check = 'database' | 'blob_store';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const hidden = { schema: { hide: true } as never };

  // Touches nothing but the event loop: a process that answers here is alive, whatever its dependencies do.
  app.get('/healthz', hidden, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', hidden, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const probes: Record<Check, () => Promise<unknown>> = {
      database: () => sql`select 1`.execute(ctx.db),
      blob_store: () => ctx.blobs.has(MISSING_HASH),
    };
    const results = await Promise.all(
      Object.entries(probes).map(async ([name, probe]) => {
        try {
          await withTimeout(probe(), PROBE_TIMEOUT_MS);
          return [name, null] as const;
        } catch (err) {
          req.log.warn({ check: name, err: (err as Error)?.message }, 'not ready');
          return [name, err] as const;
        }
      }),
    );
    const failing = results.filter(([, err]) => err !== null).map(([name]) => name);
    if (!failing.length) return { status: 'ok', checks: { database: 'ok', blob_store: 'ok' } };
    const words: Record<string, string> = { database: 'the database does not answer', blob_store: 'the blob store does not answer' };
    return reply
      .status(503)
      .header('Retry-After', '5')
      .send(errorBody('unavailable', `Not ready: ${failing.map((f) => words[f]).join(' and ')}.`, failing.map((check) => ({ check, status: 'failing' }))));
  });
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
