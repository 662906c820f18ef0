/** Bearer-token authentication: a hook for route scopes that need a signed-in user. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppScope, RouteDef } from '@haul/shared';
import type { AppContext } from '../context.js';
import { verifyAccessToken, type Caller } from './access-tokens.js';
import { HttpError, unauthenticated } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    userId: string;
    /** The verified caller (session and the account's session epoch) on routes that require one. */
    caller: Caller;
  }
}

/**
 * Every route registered in `scope` after this call requires a valid access token. A third-party app's token passes
 * only where the route's contract (`appScope`) or else `opts.appScope` names a scope it was granted.
 */
export function requireAuth(scope: FastifyInstance, ctx: AppContext, opts: { appScope?: AppScope } = {}): void {
  // The token's session query reads the run-time settings too (access-tokens.ts): app.ts's own read is skipped here.
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), [SETTINGS_WITH_SESSION]: true } as typeof route.config;
  });
  scope.addHook('onRequest', async (req: FastifyRequest) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (!match) throw unauthenticated();
    req.caller = await verifyAccessToken(ctx, match[1]!.trim());
    req.userId = req.caller.userId;
    checkAppScope(req.caller, (req.routeOptions.config as { contract?: RouteDef }).contract?.appScope ?? opts.appScope);
  });
}

const SETTINGS_WITH_SESSION = 'settingsWithSession';

/**
 * Whether the request's route needs a token, whose session query also reads the run-time settings: a request with no
 * token or a bad one is refused before anything that reads a setting runs.
 */
export const settingsComeWithSession = (req: FastifyRequest): boolean =>
  (req.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[SETTINGS_WITH_SESSION] === true;

/** Throws permission_denied for an app's token not granted `needed` (or with nothing needed: account security). */
export function checkAppScope(caller: Caller, needed: AppScope | undefined): void {
  if (!caller.clientId) return;
  if (needed && (caller.scope ?? '').split(' ').includes(needed)) return;
  throw new HttpError(403, 'permission_denied', needed ? `This app was not allowed "${needed}".` : 'Apps may not do this: only you can, signed in to Haul yourself.');
}

/** The signed-in caller on routes open to everyone (share pages): undefined when signed out or the token is bad. */
export async function optionalUserId(ctx: AppContext, req: FastifyRequest): Promise<string | undefined> {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return undefined;
  return verifyAccessToken(ctx, match[1]!.trim()).then(
    // An app's token never stands for the person here (it would ask for codes about the account).
    (c) => (c.clientId ? undefined : c.userId),
    (err) => {
      // A bad token reads as signed out; a database that is away is an error of its own.
      if (err instanceof HttpError) return undefined;
      throw err;
    },
  );
}
