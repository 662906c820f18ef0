/** App passwords for WebDAV clients: /v1/user/app_passwords (the person's own sessions only, never an app's). */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { publicUrl } from '../http/public-url.js';
import { toRfc3339 as isoTime } from '../lib/time.js';
import { isPremium } from '../accounts/user.presenter.js';
import { findUserById } from '../accounts/users.repository.js';
import { checkSudoForCredential } from '../accounts/sudo.js';
import { notFound } from '../http/errors.js';
import { createAppPassword, listAppPasswords, revokeAppPassword, type AppPassword } from './app-passwords.service.js';
import { auditCaller } from '../audit/audited.js';

const present = (p: AppPassword) => ({ id: p.id, name: p.name, created_time: isoTime(p.created_at), last_used_time: isoTime(p.last_used_at) });

export async function appPasswordsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.listAppPasswords, async (req) => {
      const user = await findUserById(ctx.db, req.userId);
      if (!user) throw notFound('The account no longer exists.');
      const premiumOnly = ctx.config.webdavPremiumOnly;
      return {
        url: `${publicUrl(ctx)}/dav/`,
        username: user.email,
        available: !premiumOnly || isPremium(user, ctx.clock.now()),
        premium_only: premiumOnly,
        app_passwords: (await listAppPasswords(ctx.db, req.userId)).map(present),
      };
    });
    serve(scope, C.createAppPassword, async (req) => {
      await checkSudoForCredential(ctx, req.caller, req.body.sudo_token);
      const { entry, password } = await createAppPassword(ctx, req.caller, req.body.name);
      await auditCaller(ctx, req, 'app_password.created', { name: entry.name });
      return { app_password: present(entry), password };
    });
    serve(scope, C.revokeAppPassword, async (req) => {
      await revokeAppPassword(ctx.db, req.userId, req.params.id);
      await auditCaller(ctx, req, 'app_password.revoked', { id: req.params.id });
      return {};
    });
  });
}
