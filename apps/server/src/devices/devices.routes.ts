/** Signed-in devices and device sign-in (RFC 8628): /v1/user/sessions, /v1/auth/device/code, /v1/user/device/authorize. */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { clientOf } from '../http/client-info.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { acceptFormBodies } from '../http/form-body.js';
import { checkSudoForCredential } from '../accounts/sudo.js';
import { answerDeviceLogin, deviceLoginInfo, startDeviceLogin } from './device-login.service.js';
import { endOtherSession, listSessions } from './sessions.service.js';

export async function devicesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // RFC 8628 clients send form bodies.
  await app.register(async (oauth) => {
    acceptFormBodies(oauth);
    serve(oauth, C.startDeviceLogin, async (req) => startDeviceLogin(ctx, req.body ?? {}, clientOf(req)));
  });

  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.listSessions, async (req) => ({ sessions: await listSessions(ctx, req.caller) }));
    serve(scope, C.endSession, async (req) => {
      await endOtherSession(ctx, req.caller, req.body.session_id, req.body.sudo_token);
      return {};
    });
    serve(scope, C.deviceLoginInfo, async (req) => deviceLoginInfo(ctx, req.userId, req.query.user_code));
    serve(scope, C.authorizeDevice, async (req) => {
      // Refusing a code costs nothing; approving one makes a session that lasts a month.
      if (req.body.approve) await checkSudoForCredential(ctx, req.caller, req.body.sudo_token);
      await answerDeviceLogin(ctx, req.caller, req.body.user_code, req.body.approve);
      return {};
    });
  });
}
