/** POST /drive/v1/stats: the apps' usage events, counted (stat-counts.ts); sign-ups by marketing source (signup-sources.ts). */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { countEvents } from './stat-counts.js';
import { countSignupSources } from './signup-sources.js';

export async function statsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  countSignupSources(app, ctx);
  serve(app, C.reportStats, async (req) => ({ counted: await countEvents(ctx.db, req.body.data, ctx.clock.now(), ctx.config.timeZone) }));
}
