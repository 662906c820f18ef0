/** GET /v1/user/audit: the account's own security events. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { listAudit } from './audit.repository.js';
import { presentAudit } from './audit.presenter.js';

export async function auditRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.listAccountAudit, async (req) => {
      const page = await listAudit(ctx.db, { subjectId: req.userId, limit: req.query.limit ?? 50, pageToken: req.query.page_token });
      return { events: await presentAudit(ctx.db, page.rows), next_page_token: page.nextPageToken };
    });
  });
}
