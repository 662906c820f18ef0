/**
 * Third-party apps: the consent screen's calls (/v1/user/authorize…), introspection (/v1/auth/token/introspect) and
 * the person's connected apps (/v1/user/apps), and the server's metadata (RFC 8414). The code grant itself is served by
 * POST /v1/auth/token (accounts).
 */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { acceptFormBodies } from '../http/form-body.js';
import { publicUrl } from '../http/public-url.js';
import { authorizeInfo, detectConsent, grantCode } from './authorize.service.js';
import { listApps, revokeApp } from './connected-apps.service.js';
import { introspect } from './introspection.service.js';
import { serverMetadata } from './metadata.js';
import { auditCaller } from '../audit/audited.js';

export async function oauthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.oauthMetadata, async () => serverMetadata(publicUrl(ctx).replace(/\/+$/, '')));

  await app.register(async (scope) => {
    acceptFormBodies(scope);
    serve(scope, C.introspectToken, async (req) => introspect(ctx, req.body.token, { ...req.body, authorization: req.headers.authorization }));
  });

  // The person's own session only: an app can neither authorize itself nor see or disconnect apps.
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.authorizeInfo, async (req) => authorizeInfo(ctx, req.query));
    serve(scope, C.authorizeDetect, async (req) => detectConsent(ctx, req.caller, req.query));
    serve(scope, C.authorize, async (req) => {
      const granted = await grantCode(ctx, req.caller, req.body);
      await auditCaller(ctx, req, 'app.allowed', { client_id: req.body.client_id, scope: req.body.scope ?? '' });
      return granted;
    });
    serve(scope, C.listApps, async (req) => listApps(ctx, req.userId));
    serve(scope, C.revokeApp, async (req) => {
      await revokeApp(ctx, req.userId, req.params.client_id);
      return {};
    });
  });
}
