/** /v1/auth/provider…, /v1/auth/signin/with/provider and /v1/user/provider…: sign-in providers (OpenID Connect). */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { clientOf } from '../http/client-info.js';
import { serve } from '../http/contract.js';
import { OidcClients } from './oidc-clients.js';
import { bindProvider, listLinkedProviders, signInWithProvider, unbindProvider } from './provider-accounts.service.js';
import { finishProviderSignIn, startProviderSignIn } from './provider-flow.service.js';


export async function providersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const clients = new OidcClients(ctx.config.oidcProviders, ctx.config.networkTimeoutSeconds, app.log);

  serve(app, C.listSignInProviders, async () => ({
    providers: clients.providers.map((p) => ({ id: p.id, name: p.name })),
    sign_up: ctx.config.registration === 'open',
  }));
  serve(app, C.providerAuthUri, async (req) => startProviderSignIn(ctx, clients, req.body, req.ip));
  serve(app, C.providerToken, async (req) => finishProviderSignIn(ctx, clients, req.body));
  serve(app, C.signInWithProvider, async (req) => signInWithProvider(ctx, clients, req.body.provider_token, clientOf(req), req.body.verification_code, req.body.invitation_code));

  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.listLinkedProviders, async (req) => listLinkedProviders(ctx, clients, req.userId));
    serve(scope, C.bindProvider, async (req) => bindProvider(ctx, clients, req.caller, req.body));
    serve(scope, C.unbindProvider, async (req) => {
      await unbindProvider(ctx, req.caller, req.body.provider_id);
      return {};
    });
  });
}
