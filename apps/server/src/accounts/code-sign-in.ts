/**
 * Signing in with a mailed code (seed 001 purposes SIGN_IN and REGISTER_SIGN_IN, route /signin/token): the code proved
 * the address, so it signs in the account holding it now, or, for REGISTER_SIGN_IN on a server open to sign-ups, makes
 * one without a password (as a sign-in provider's first sign-in does). Two-factor sign-in still asks its code, checked
 * before the token is spent. Guessing is the code's own limits (five answers a code, codes per address and network).
 */
import type { TokenResponse } from '@haul/shared';
import { normalPhoneNumber } from '@haul/shared/phone-numbers';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { recordAudit } from '../audit/audit.repository.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import type { ClientInfo } from '../http/client-info.js';
import { badInput, HttpError } from '../http/errors.js';
import { recordInvitation } from '../invitations/invitation-rewards.js';
import { grantTrial } from '../plans/trial.js';
import { passwordlessHash } from '../providers/passwordless.js';
import { issueTokens, knownAddress } from './tokens.js';
import { checkSecondFactor } from './two-factor.js';
import { findUserByEmail, findUserByPhone, newUserRow, normalEmail } from './users.repository.js';
import { findToken, spendToken } from './verification.service.js';
import { setupRequired } from './setup-state.js';

const gone = () => new HttpError(400, 'invalid_grant', 'The verification is not valid any more (used, expired or for something else). Please request a new code.');

/** A new account for a proven address, without a password; its trial and invitation granted in the same transaction. */
async function createCodeAccount(ctx: AppContext, email: string, client: ClientInfo, invitationCode?: string): Promise<UserRow> {
  const user = newUserRow(ctx.config, ctx.clock.now(), { email, name: email.split('@')[0]!.slice(0, 100), passwordHash: await passwordlessHash() });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      await grantTrial(ctx, trx, user);
      await recordInvitation(ctx, trx, user, invitationCode, client.ip);
    });
    return user;
  } catch (err) {
    // Made meanwhile (a sign-up, another code): the address is proven, so that account is the one.
    const made = isUniqueViolation(err) ? await findUserByEmail(ctx.db, email) : undefined;
    if (made) return made;
    throw err;
  }
}

export async function signInWithCode(
  ctx: AppContext,
  input: { verification_token: string; email?: string; phone_number?: string; verification_code?: string; invitation_code?: string },
  client: ClientInfo,
): Promise<TokenResponse> {
  // A texted code signs in the account holding the number; only a mailed one may make an account.
  const phone = input.phone_number ? normalPhoneNumber(input.phone_number) : null;
  if (input.phone_number && !phone) throw badInput('Please enter a valid phone number with its country code, starting with + (like +44 7911 123456).');
  if (!phone && !input.email) throw badInput('Give the e-mail address or the phone number the code went to.');
  const wants = phone ? { usages: ['SIGN_IN'] as const, phone } : { usages: ['SIGN_IN', 'REGISTER_SIGN_IN'] as const, email: normalEmail(input.email!) };
  const holder = (to: string) => (phone ? findUserByPhone(ctx.db, to) : findUserByEmail(ctx.db, to));
  const pending = await findToken(ctx, input.verification_token, wants);
  const before = await holder(pending.email);
  if (before) await checkSecondFactor(ctx, before.id, input.verification_code);
  const row = await spendToken(ctx, input.verification_token, wants);
  let user = await holder(row.email);
  if (!user) {
    // Only REGISTER_SIGN_IN makes accounts, and only while sign-ups are open (checked again: the setting may have moved).
    if (row.usage !== 'REGISTER_SIGN_IN' || ctx.config.registration !== 'open' || (await setupRequired(ctx))) throw gone();
    user = await createCodeAccount(ctx, row.email, client, input.invitation_code);
  } else if (!before) {
    // Made between the check and now by someone else's sign-up: its second factor is asked all the same.
    await checkSecondFactor(ctx, user.id, input.verification_code);
  }
  if (user.disabled_at !== null) throw new HttpError(403, 'permission_denied', 'This account is disabled. Please contact the operator of this server.');
  const known = await knownAddress(ctx.db, user.id, client.ip);
  const tokens = await issueTokens(ctx, user.id, client);
  if (!known) await recordAudit(ctx.db, { action: 'sign_in.new_network', subjectId: user.id, ip: client.ip, details: { device: client.userAgent.slice(0, 200) } }, ctx.clock.now());
  return tokens;
}
