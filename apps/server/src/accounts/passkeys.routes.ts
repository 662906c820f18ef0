/** /v1/user/passkeys (add with sudo, list, rename, remove with sudo) and /v1/auth/passkey (sign in with one). */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { auditCaller } from '../audit/audited.js';
import { requireAuth } from '../http/auth.js';
import { clientOf } from '../http/client-info.js';
import { serve } from '../http/contract.js';
import { checkSudo } from './sudo.js';
import { addPasskey, listPasskeys, presentPasskey, registrationOptions, removePasskey, renamePasskey, signInOptions, signInWithPasskey } from './passkeys.service.js';

export async function passkeysRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  serve(app, C.passkeySignInOptions, async (req) => ({ options: { ...(await signInOptions(ctx, clientOf(req))) } }));
  serve(app, C.signInWithPasskey, async (req) => signInWithPasskey(ctx, req.body.credential, clientOf(req)));

  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.listPasskeys, async (req) => ({ passkeys: (await listPasskeys(ctx, req.userId)).map(presentPasskey) }));
    serve(scope, C.passkeyRegistrationOptions, async (req) => {
      await checkSudo(ctx, req.caller, req.body.sudo_token);
      return { options: { ...(await registrationOptions(ctx, req.caller)) } };
    });
    serve(scope, C.addPasskey, async (req) => {
      await checkSudo(ctx, req.caller, req.body.sudo_token);
      const row = await addPasskey(ctx, req.caller, req.body.credential, req.body.name, clientOf(req));
      await auditCaller(ctx, req, 'passkey.added', { name: row.name });
      return presentPasskey(row);
    });
    serve(scope, C.renamePasskey, async (req) => presentPasskey(await renamePasskey(ctx, req.userId, req.params.id, req.body.name)));
    serve(scope, C.removePasskey, async (req) => {
      await checkSudo(ctx, req.caller, req.body.sudo_token);
      const gone = await removePasskey(ctx, req.userId, req.params.id);
      await auditCaller(ctx, req, 'passkey.removed', { name: gone.name });
      return {};
    });
  });
}
