/** /v1/auth/* and /v1/user/* */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { HttpError, notFound } from '../http/errors.js';
import { refresh, signIn, signUp } from './accounts.service.js';
import { endAllSessions, revokeRefreshToken, type ClientInfo } from './tokens.js';
import { presentUser } from './user.presenter.js';
import { findUserById } from './users.repository.js';

const SignUpBody = Type.Object({
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 1024 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});
const SignInBody = Type.Object({
  username: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 1024 }),
});
const TokenBody = Type.Object({
  grant_type: Type.String(),
  refresh_token: Type.Optional(Type.String({ maxLength: 200 })),
});
const RevokeBody = Type.Object({ token: Type.String({ maxLength: 200 }) });

/** The client a request comes from (its address as the trusted proxy names it). */
const clientOf = (req: FastifyRequest): ClientInfo => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

export async function accountsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Sign-up and sign-in limits live in the database (accounts.service), so they hold across processes.
  app.post<{ Body: Static<typeof SignUpBody> }>('/v1/auth/signup', { schema: { body: SignUpBody } }, async (req) =>
    signUp(ctx, req.body, clientOf(req)),
  );

  app.post<{ Body: Static<typeof SignInBody> }>('/v1/auth/signin', { schema: { body: SignInBody } }, async (req) =>
    signIn(ctx, req.body.username, req.body.password, clientOf(req)),
  );

  app.post<{ Body: Static<typeof TokenBody> }>('/v1/auth/token', { schema: { body: TokenBody } }, async (req) => {
    if (req.body.grant_type !== 'refresh_token' || !req.body.refresh_token) {
      throw new HttpError(400, 'invalid_argument', 'Only grant_type "refresh_token" with a refresh_token is supported.');
    }
    return refresh(ctx, req.body.refresh_token);
  });

  app.post<{ Body: Static<typeof RevokeBody> }>('/v1/auth/revoke', { schema: { body: RevokeBody } }, async (req) => {
    await revokeRefreshToken(ctx, req.body.token);
    return {};
  });

  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    scope.get('/v1/user/me', async (req) => {
      const user = await findUserById(ctx.db, req.userId);
      if (!user) throw notFound('The account no longer exists.');
      return presentUser(user, ctx.clock.now());
    });
    // Sign out everywhere: every session of the account ends, this one too, with its access tokens and download links.
    scope.delete('/v1/user/sessions', async (req) => {
      await endAllSessions(ctx.db, req.userId);
      return {};
    });
  });
}
