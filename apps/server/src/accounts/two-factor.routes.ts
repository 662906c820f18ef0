/** /v1/user/2fa: set up, turn on and off, and replace the recovery codes of two-factor sign-in (each with a sudo token). */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { notFound } from '../http/errors.js';
import { checkSudo } from './sudo.js';
import { beginTwoFactor, disableTwoFactor, enableTwoFactor, replaceRecoveryCodes, twoFactorStatus } from './two-factor.js';
import { findUserById } from './users.repository.js';
import { auditCaller } from '../audit/audited.js';

export async function twoFactorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.twoFactorStatus, async (req) => twoFactorStatus(ctx, req.userId));
    serve(scope, C.beginTwoFactor, async (req) => {
      await checkSudo(ctx, req.caller, req.body.sudo_token);
      const user = await findUserById(ctx.db, req.userId);
      if (!user) throw notFound('The account no longer exists.');
      return beginTwoFactor(ctx, user.id, user.email);
    });
    serve(scope, C.enableTwoFactor, async (req) => {
      await checkSudo(ctx, req.caller, req.body.sudo_token);
      const codes = await enableTwoFactor(ctx, req.userId, req.body.code);
      await auditCaller(ctx, req, 'two_factor.enabled');
      return codes;
    });
    serve(scope, C.disableTwoFactor, async (req) => {
      await checkSudo(ctx, req.caller, req.body.sudo_token);
      await disableTwoFactor(ctx, req.userId);
      await auditCaller(ctx, req, 'two_factor.disabled');
      return {};
    });
    serve(scope, C.replaceRecoveryCodes, async (req) => {
      await checkSudo(ctx, req.caller, req.body.sudo_token);
      return replaceRecoveryCodes(ctx, req.userId);
    });
  });
}
