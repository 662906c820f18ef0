/** /v1/auth/* and /v1/user/* */
import { Type, type Static } from '@sinclair/typebox';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { HttpError, notFound } from '../http/errors.js';
import { refresh, signIn, signUp } from './accounts.service.js';
import { revokeRefreshToken } from './tokens.js';
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

/** Password guessing is slowed per address and account; sign-up per address. (In-memory: per process.) */
const tooMany = (_req: unknown, c: { ttl: number }) =>
  new HttpError(429, 'too_many_requests', `Too many attempts. Please try again in ${Math.ceil(c.ttl / 1000)} seconds.`);

export async function accountsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // preHandler: the sign-in key needs the parsed body.
  await app.register(rateLimit, { global: false, hook: 'preHandler', errorResponseBuilder: tooMany });

  app.post<{ Body: Static<typeof SignUpBody> }>(
    '/v1/auth/signup',
    { schema: { body: SignUpBody }, config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
    async (req) => signUp(ctx, req.body),
  );

  app.post<{ Body: Static<typeof SignInBody> }>(
    '/v1/auth/signin',
    {
      schema: { body: SignInBody },
      config: {
        rateLimit: {
          max: 10,
          timeWindow: 60_000,
          keyGenerator: (req) => `${req.ip}|${String((req.body as { username?: unknown })?.username ?? '').toLowerCase()}`,
        },
      },
    },
    async (req) => signIn(ctx, req.body.username, req.body.password),
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
  });
}
