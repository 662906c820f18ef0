/** /v1/auth/* and /v1/user/* */
import type { FastifyInstance } from 'fastify';
import { completeSetup } from './first-run-setup.js';
import { setupRequired } from './setup-state.js';
import { CONTRACT as C, DEVICE_CODE_GRANT } from '@haul/shared';
import type { AppContext } from '../context.js';
import { optionalUserId, requireAuth } from '../http/auth.js';
import { clientOf } from '../http/client-info.js';
import { serve } from '../http/contract.js';
import { acceptFormBodies } from '../http/form-body.js';
import { HttpError } from '../http/errors.js';
import { pollDeviceLogin } from '../devices/device-login.service.js';
import { revokeToken } from '../oauth/introspection.service.js';
import { appTokenGrant } from '../oauth/token-grant.service.js';
import { changeContact } from './contact.service.js';
import { deleteOwnAccount, deletionEligibility } from './account-deletion.service.js';
import type { AccountEraser } from './account-erasure.js';
import { changePassword, refresh, resetPassword, signIn, signUp } from './accounts.service.js';
import { signInWithCode } from './code-sign-in.js';
import { grantSudo } from './sudo.js';
import { endAllSessions } from './tokens.js';
import { findUserById } from './users.repository.js';
import { listAvatars, updateProfile } from './profile.service.js';
import { readSettings, saveSettings } from './user-settings.service.js';
import { loadUserInfo } from './user-info.js';
import { requestVerification, verifyCode } from './verification.service.js';
import { auditCaller } from '../audit/audited.js';
import { maskPhoneNumber } from '../sms/sms.js';

export async function accountsRoutes(app: FastifyInstance, ctx: AppContext, eraser: AccountEraser): Promise<void> {
  // Sign-up and sign-in limits live in the database (accounts.service), so they hold across processes.
  serve(app, C.signUp, async (req) => signUp(ctx, req.body, clientOf(req)));
  serve(app, C.getSetup, async () => ({ required: await setupRequired(ctx) }));
  serve(app, C.getSite, async () => ({ name: ctx.config.siteName.trim() || 'Haul' }));
  serve(app, C.completeSetup, async (req) => completeSetup(ctx, req.body, clientOf(req)));

  serve(app, C.signIn, async (req) => signIn(ctx, req.body, clientOf(req)));
  serve(app, C.signInWithCode, async (req) => signInWithCode(ctx, req.body, clientOf(req)));

  // The token and revoke endpoints are OAuth's: standard clients send form bodies there.
  await app.register(async (oauth) => {
    acceptFormBodies(oauth);
    serve(oauth, C.refreshToken, async (req) => {
      // Third-party apps' grants (oauth/): a code exchange answers here; an app's refresh token is checked first.
      const granted = await appTokenGrant(ctx, req.body, req.headers.authorization, clientOf(req));
      if (granted) return granted;
      const { grant_type: grant, refresh_token: refreshToken, device_code: deviceCode } = req.body;
      if (grant === 'refresh_token' && refreshToken) return refresh(ctx, refreshToken);
      if (grant === DEVICE_CODE_GRANT && deviceCode) return pollDeviceLogin(ctx, deviceCode, clientOf(req));
      throw new HttpError(400, 'invalid_argument', `grant_type must be "refresh_token" with a refresh_token, "authorization_code" with a code, or "${DEVICE_CODE_GRANT}" with a device_code.`);
    });

    serve(oauth, C.revokeToken, async (req) => {
      await revokeToken(ctx, req.body.token, { ...req.body, authorization: req.headers.authorization });
      return {};
    });
  });

  // Public: sign-up and a forgotten password need codes before there is a session; the usages about the signed-in
  // account check the bearer token themselves.
  serve(app, C.requestVerification, async (req) =>
    requestVerification(ctx, req.body, await optionalUserId(ctx, req), { ...clientOf(req), acceptLanguage: req.headers['accept-language'] }),
  );
  serve(app, C.verifyVerification, async (req) => verifyCode(ctx, req.body.verification_id, req.body.verification_code));
  serve(app, C.resetPassword, async (req) => resetPassword(ctx, req.body, clientOf(req)));

  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.getMe, async (req) => loadUserInfo(ctx, req.userId, req.caller.sessionId));
    serve(scope, C.listAvatars, async () => listAvatars());
    serve(scope, C.updateProfile, async (req) => updateProfile(ctx, req.userId, req.body));
    serve(scope, C.getUserSettings, async (req) => ({ settings: await readSettings(ctx, req.userId, req.query.items) }));
    serve(scope, C.saveUserSettings, async (req) => {
      const { item, value, items } = req.body;
      return { settings: await saveSettings(ctx, req.userId, [...(item ? [{ item, value }] : []), ...(items ?? [])]) };
    });
    // Sign out everywhere: every session of the account ends, this one too, with its access tokens and download links.
    serve(scope, C.signOutEverywhere, async (req) => {
      await endAllSessions(ctx.db, req.userId);
      await auditCaller(ctx, req, 'sessions.ended');
      return {};
    });
    serve(scope, C.grantSudo, async (req) => grantSudo(ctx, req.caller, req.body));
    serve(scope, C.setPassword, async (req) => {
      await changePassword(ctx, req.caller, req.body.sudo_token, req.body.new_password);
      await auditCaller(ctx, req, 'password.changed', { by: 'account' });
      return {};
    });
    serve(scope, C.changeContact, async (req) => {
      const before = await findUserById(ctx.db, req.userId);
      const info = await changeContact(ctx, req.caller, req.body, req.headers['accept-language']);
      // An address is named (the operator may need the old one back); a number only masked, as logs show it.
      if (req.body.email !== undefined) await auditCaller(ctx, req, 'email.changed', { from: before?.email ?? '', to: info.email });
      else await auditCaller(ctx, req, 'phone.changed', { from: maskPhoneNumber(before?.phone_number ?? ''), to: maskPhoneNumber(info.phone_number ?? '') });
      return info;
    });
    serve(scope, C.accountDeletionEligibility, async (req) => deletionEligibility(ctx, req.userId));
    // The account ends with the answer; what it had is erased after it, in the background and by the periodic jobs.
    serve(scope, C.deleteAccount, async (req) => {
      await deleteOwnAccount(ctx, req.caller, req.body.sudo_token);
      await auditCaller(ctx, req, 'account.deletion_requested');
      eraser.kick(req.userId);
      return {};
    });
  });
}
