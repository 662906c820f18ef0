/** The large-file pre-check (GET files:checkCid); uploads themselves start in start-upload.ts and go on over tus. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { serve } from '../http/contract.js';
import { cidExists } from './uploads.service.js';

export async function uploadsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.checkCid, async (req) => ({ exists: await cidExists(ctx.db, req.query.cid, req.query.file_size) }));
}
