/** /vip/v1/activity: the invite link and who joined with it, and the rewards earned. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { inviteInfo, inviteRewards } from './invitations.service.js';

export async function invitationsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.inviteInfo, async (req) => inviteInfo(ctx, req.userId));
    serve(scope, C.invite, async (req) => inviteInfo(ctx, req.userId));
    serve(scope, C.rewardVip, async (req) => inviteRewards(ctx, req.userId));
  });
}
