/** /v1/auth/* and /v1/user/* */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { HttpError, notFound } from '../http/errors.js';
import { refresh, signIn, signUp } from './accounts.service.js';
import { endAllSessions, revokeRefreshToken, type ClientInfo } from './tokens.js';
import { presentUser } from './user.presenter.js';
import { findUserById } from './users.repository.js';

/** The client a request comes from (its address as the trusted proxy names it). */
const clientOf = (req: FastifyRequest): ClientInfo => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

export async function accountsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
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
  });
}
