/**
 * The operator's account work beyond changing one: making an account (sign-up's createUser, so the same rules hold,
 * whatever the registration setting), mailing its owner a password-reset code ("Forgot password"'s own sending),
 * granting a plan (the grants products and codes apply) and deleting it (the mark a person's own deletion makes, then
 * the same erasure). Each is recorded in the audit log.
 */
import { formatGrantSpec, GrantSpecError, isEmail, parseGrantSpec, type VipInfo } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { HttpError, badInput, notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { publicUrl } from '../http/public-url.js';
import { createUser } from '../accounts/accounts.service.js';
import { markAccountDeleted } from '../accounts/account-deletion.service.js';
import { requestVerification } from '../accounts/verification.service.js';
import { recordAudit } from '../audit/audit.repository.js';
import { applyGrant } from '../plans/grants.js';
import { grantTrial } from '../plans/trial.js';
import { vipInfo } from '../plans/vip-info.js';
import { userDetail } from './admin-users.service.js';

export interface Actor {
  id: string;
  ip: string;
}

async function liveUser(db: Db, id: string): Promise<UserRow> {
  const u = await db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!u) throw notFound('No account has that id.');
  return u;
}

/** POST /admin/v1/users: an account made by sign-up's rules (the trial too), its creation recorded in the insert's transaction. */
export async function createAccount(ctx: AppContext, actor: Actor, input: { email: string; password: string; name?: string; is_admin?: boolean }) {
  const isAdmin = input.is_admin === true;
  const row = await createUser(ctx, { email: input.email, password: input.password, name: input.name, isAdmin }, async (trx, user) => {
    // The person it is for is as new here as one who signed up: the same trial, once per address.
    await grantTrial(ctx, trx, user);
    await recordAudit(trx, { action: 'admin.user.created', subjectId: user.id, actorId: actor.id, ip: actor.ip, details: { email: user.email, is_admin: isAdmin } }, ctx.clock.now());
  });
  return (await userDetail(ctx, row.id)).user;
}

/**
 * POST /admin/v1/users/:id/password-reset: the code "Forgot password" sends, through the same call (its limits
 * included), so the person resets the same way. Refused where that call would silently send nothing: a disabled
 * account, or one without an address.
 */
export async function sendPasswordReset(ctx: AppContext, actor: Actor & { userAgent: string }, id: string): Promise<{ email: string }> {
  const user = await liveUser(ctx.db, id);
  if (!isEmail(user.email)) throw new HttpError(409, 'failed_precondition', 'This account has no e-mail address to send a reset code to.');
  if (user.disabled_at !== null) throw new HttpError(409, 'failed_precondition', 'This account is disabled: enable it first, then send the reset code.');
  // The link in the mail has the console's address: the operator's own signed-in request, not a stranger's Host.
  await requestVerification(ctx, { usage: 'PASSWORD_RESET', email: user.email }, undefined, { ip: actor.ip, userAgent: actor.userAgent, linkBase: publicUrl(ctx) });
  // After the request was accepted (a refused one, e.g. too many codes, sent nothing); the code itself is never recorded.
  await recordAudit(ctx.db, { action: 'admin.user.password_reset_sent', subjectId: id, actorId: actor.id, ip: actor.ip, details: { email: user.email } }, ctx.clock.now());
  return { email: user.email };
}

/** GET /admin/v1/users/:id/grants: premium and the grants that count now or later. */
export async function accountGrants(ctx: AppContext, id: string): Promise<VipInfo> {
  await liveUser(ctx.db, id);
  return vipInfo(ctx, id);
}

/** POST /admin/v1/users/:id/grants: a grant spec applied as a product's or a code's is (source `admin`), recorded. */
export async function grantPlan(ctx: AppContext, actor: Actor, id: string, spec: string): Promise<VipInfo> {
  let normal: string;
  try {
    normal = formatGrantSpec(parseGrantSpec(spec));
  } catch (err) {
    if (err instanceof GrantSpecError) throw badInput(err.message);
    throw err;
  }
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await liveUser(trx, id);
    const grantId = newId();
    await applyGrant(trx, id, normal, { source: 'admin', sourceId: grantId }, now);
    await recordAudit(trx, { action: 'admin.user.granted', subjectId: id, actorId: actor.id, ip: actor.ip, details: { grant: normal } }, now);
  });
  return vipInfo(ctx, id);
}

/**
 * DELETE /admin/v1/users/:id: the mark a person's own deletion makes (markAccountDeleted: the last operator is
 * refused there), recorded after it; `erase` then starts the same background erasure. The event names the address,
 * which the erasure leaves (the account's own log goes with it, this event stays).
 */
export async function deleteAccount(ctx: AppContext, actor: Actor, id: string, erase: (userId: string) => void): Promise<void> {
  if (id === actor.id) throw badInput('An operator cannot delete their own account here: delete it from your own account page.');
  const user = await liveUser(ctx.db, id);
  await markAccountDeleted(ctx, id);
  await recordAudit(ctx.db, { action: 'admin.user.deleted', subjectId: id, actorId: actor.id, ip: actor.ip, details: { email: user.email } }, ctx.clock.now());
  erase(id);
}
