/**
 * A worker's own small HTTP server (HAUL_OPS_PORT): /healthz, /readyz and /metrics only, so orchestrators can check a
 * worker and Prometheus can scrape its blob store latency and process figures. The API and the web app stay on the
 * API processes; a worker without HAUL_OPS_PORT opens no port at all.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { healthRoutes } from './health.routes.js';
import type { HaulMetrics } from './metrics.js';
import { metricsRoutes } from './metrics.routes.js';

export async function startOpsServer(ctx: AppContext, metrics: HaulMetrics, host: string, port: number): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await healthRoutes(app, ctx);
  await metricsRoutes(app, ctx, metrics);
  await app.listen({ port, host });
  return app;
}
