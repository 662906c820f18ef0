/**
 * Who may use the operator's console: one check for every admin route. The caller's own session (never an app's
 * token: an app is never granted the console) of an account with the admin role that is not disabled, read from the
 * database on every call, so a demotion takes effect at once in every process.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { HttpError } from '../http/errors.js';

export function requireAdmin(scope: FastifyInstance, ctx: AppContext): void {
  requireAuth(scope, ctx);
  scope.addHook('onRequest', async (req: FastifyRequest) => {
    if (req.caller.clientId) throw new HttpError(403, 'permission_denied', "Apps may not use the operator's console.");
    const user = await ctx.db.selectFrom('users').select('is_admin').where('id', '=', req.userId).where('disabled_at', 'is', null).where('deleted_at', 'is', null).executeTakeFirst();
    if (user?.is_admin !== 1) throw new HttpError(403, 'permission_denied', "This needs an operator's account.");
  });
}
