/** Bearer-token authentication: a hook for route scopes that need a signed-in user. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { verifyAccessToken, type Caller } from '../accounts/tokens.js';
import { HttpError, unauthenticated } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    userId: string;
    /** The verified caller (session and the account's session epoch) on routes that require one. */
    caller: Caller;
  }
}

/** Every route registered in `scope` after this call requires a valid access token. */
export function requireAuth(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook('onRequest', async (req: FastifyRequest) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw unauthenticated();
    req.caller = await verifyAccessToken(ctx, match[1]!.trim());
    req.userId = req.caller.userId;
  });
}

/** The signed-in caller on routes open to everyone (share pages): undefined when signed out or the token is bad. */
export async function optionalUserId(ctx: AppContext, req: FastifyRequest): Promise<string | undefined> {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  return verifyAccessToken(ctx, match[1]!.trim()).then(
    (c) => c.userId,
    (err) => {
      // A bad token reads as signed out; a database that is away is an error of its own.
      if (err instanceof HttpError) return undefined;
      throw err;
    },
  );
}
