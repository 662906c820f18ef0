/**
 * GET /metrics in Prometheus's text format. With HAUL_METRICS_TOKEN set it asks for that bearer token (401 without
 * it); unset, it answers only requests made on this machine: from a loopback address and not relayed by a proxy (a
 * proxy on the same machine connects from loopback too, so X-Forwarded-For or Forwarded marks a relayed request).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { HaulMetrics } from './metrics.js';

export async function metricsRoutes(app: FastifyInstance, ctx: AppContext, metrics: HaulMetrics): Promise<void> {
  const token = ctx.config.metricsToken;
  app.get('/metrics', { schema: { hide: true } as never }, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (token !== null) {
      if (!sameSecret(bearer(req), token)) {
        return reply.status(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send(errorBody('unauthenticated', 'The metrics need the bearer token set in HAUL_METRICS_TOKEN.'));
      }
    } else if (!isLocal(req)) {
      return reply.status(403).send(errorBody('permission_denied', 'The metrics answer only on this machine unless HAUL_METRICS_TOKEN is set.'));
    }
    const { body, contentType } = await metrics.render();
    return reply.type(contentType).send(body);
  });
}

function bearer(req: FastifyRequest): string {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m ? m[1]! : '';
}

/** Compared as digests: equal length, constant time, whatever was sent. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return given !== '' && timingSafeEqual(digest(given), digest(expected));
}

/** The connecting address itself (not req.ip, which a trusted proxy's header sets) is loopback, and no proxy relayed it. */
function isLocal(req: FastifyRequest): boolean {
  const peer = req.raw.socket?.remoteAddress ?? '';
  const loopback = /^(127\.|::ffff:127\.)/.test(peer) || peer === '::1';
  return loopback && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined && req.headers['x-real-ip'] === undefined;
}
