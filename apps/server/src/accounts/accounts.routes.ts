/** /v1/auth/* and /v1/user/* */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { optionalUserId, requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { HttpError, notFound } from '../http/errors.js';
import { deleteOwnAccount, deletionEligibility } from './account-deletion.service.js';
import type { AccountEraser } from './account-erasure.js';
import { changePassword, refresh, resetPassword, signIn, signUp } from './accounts.service.js';
import { grantSudo } from './sudo.js';
import { endAllSessions, revokeRefreshToken, type ClientInfo } from './tokens.js';
import { presentUser } from './user.presenter.js';
import { findUserById } from './users.repository.js';
import { requestVerification, verifyCode } from './verification.service.js';

/** The client a request comes from (its address as the trusted proxy names it). */
const clientOf = (req: FastifyRequest): ClientInfo => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

export async function accountsRoutes(app: FastifyInstance, ctx: AppContext, eraser: AccountEraser): Promise<void> {
  // Sign-up and sign-in limits live in the database (accounts.service), so they hold across processes.
  serve(app, C.signUp, async (req) => signUp(ctx, req.body, clientOf(req)));

  serve(app, C.signIn, async (req) => signIn(ctx, req.body.username, req.body.password, clientOf(req)));

  serve(app, C.refreshToken, async (req) => {
    if (req.body.grant_type !== 'refresh_token' || !req.body.refresh_token) {
      throw new HttpError(400, 'invalid_argument', 'Only grant_type "refresh_token" with a refresh_token is supported.');
    }
    return refresh(ctx, req.body.refresh_token);
  });

  serve(app, C.revokeToken, async (req) => {
    await revokeRefreshToken(ctx, req.body.token);
    return {};
  });

  // Public: sign-up and a forgotten password need codes before there is a session; the usages about the signed-in
  // account check the bearer token themselves.
  serve(app, C.requestVerification, async (req) =>
    requestVerification(ctx, req.body, await optionalUserId(ctx, req), { ...clientOf(req), acceptLanguage: req.headers['accept-language'] }),
  );
  serve(app, C.verifyVerification, async (req) => verifyCode(ctx, req.body.verification_id, req.body.verification_code));
  serve(app, C.resetPassword, async (req) => resetPassword(ctx, req.body, clientOf(req)));

  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.getMe, async (req) => {
      const user = await findUserById(ctx.db, req.userId);
      if (!user) throw notFound('The account no longer exists.');
      return presentUser(user, ctx.clock.now());
    });
    // Sign out everywhere: every session of the account ends, this one too, with its access tokens and download links.
    serve(scope, C.signOutEverywhere, async (req) => {
      await endAllSessions(ctx.db, req.userId);
      return {};
    });
    serve(scope, C.grantSudo, async (req) => grantSudo(ctx, req.caller, req.body));
    serve(scope, C.setPassword, async (req) => {
      await changePassword(ctx, req.caller, req.body.sudo_token, req.body.new_password);
      return {};
    });
    serve(scope, C.accountDeletionEligibility, async (req) => deletionEligibility(ctx, req.userId));
    // The account ends with the answer; what it had is erased after it, in the background and by the periodic jobs.
    serve(scope, C.deleteAccount, async (req) => {
      await deleteOwnAccount(ctx, req.caller, req.body.sudo_token);
      eraser.kick(req.userId);
      return {};
    });
  });
}
