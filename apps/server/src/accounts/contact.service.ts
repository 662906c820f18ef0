/**
 * Changing the account's e-mail address or phone number (seed 001 §7, "bind phone or e-mail"): a sudo token proves
 * the person at the session, a verification token of a code sent to the new address or number proves that. The old
 * address is told of a new one, so an owner whose session was taken learns of it. Removing the phone number takes the
 * sudo token alone.
 */
import { isEmail, type UserInfo } from '@haul/shared';
import { normalPhoneNumber } from '@haul/shared/phone-numbers';
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { addressChangedMessage, pickLocale } from '../mail/messages.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { checkSudo } from './sudo.js';
import type { Caller } from '../http/access-tokens.js';
import { loadUserInfo } from './user-info.js';
import { findUserByEmail, findUserById, findUserByPhone, normalEmail } from './users.repository.js';
import { spendToken } from './verification.service.js';

interface ContactChange {
  sudo_token: string;
  verification_token?: string;
  email?: string;
  phone_number?: string;
}

const phoneTaken = () => new HttpError(409, 'already_exists', 'Another account has this phone number.');

export async function changeContact(ctx: AppContext, caller: Caller, input: ContactChange, acceptLanguage?: string): Promise<UserInfo> {
  if (input.phone_number !== undefined && input.email !== undefined) throw badInput('Send either email or phone_number, not both.');
  if (input.phone_number !== undefined) return changePhone(ctx, caller, input);
  const email = normalEmail(input.email ?? '');
  if (!isEmail(email)) throw badInput('Please enter a valid email address.');
  if (!input.verification_token) throw badInput('A verification_token of a code mailed to the new address is needed.');
  await checkSudo(ctx, caller, input.sudo_token);
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw new HttpError(400, 'invalid_grant', 'The account no longer exists.');
  if (email === user.email) throw badInput('This is your e-mail address already.');
  if (await findUserByEmail(ctx.db, email)) throw new HttpError(409, 'already_exists', 'An account with this email already exists.');
  await spendToken(ctx, input.verification_token, { usages: ['EMAIL_ADDRESS_CHANGE'], userId: user.id, email });
  try {
    await ctx.db.updateTable('users').set({ email }).where('id', '=', user.id).execute();
  } catch {
    // Taken between the check and the change (the unique index): the same answer as before.
    throw new HttpError(409, 'already_exists', 'An account with this email already exists.');
  }
  // Told in the background: the change is made whether or not the old mailbox still takes mail.
  ctx.mailer.send(addressChangedMessage({ to: user.email, name: user.name, newAddress: email, locale: pickLocale(undefined, acceptLanguage) })).catch(() => undefined);
  return loadUserInfo(ctx, user.id);
}

/** Binds a texted number (a first one or a new one), or with `phone_number: ""` removes it. */
async function changePhone(ctx: AppContext, caller: Caller, input: ContactChange): Promise<UserInfo> {
  const raw = input.phone_number!.trim();
  const phone = raw ? normalPhoneNumber(raw) : null;
  if (raw && !phone) throw badInput('Please enter a valid phone number with its country code, starting with + (like +44 7911 123456).');
  if (phone && !input.verification_token) throw badInput('A verification_token of a code texted to the number is needed.');
  await checkSudo(ctx, caller, input.sudo_token);
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw new HttpError(400, 'invalid_grant', 'The account no longer exists.');
  if (!phone) {
    await ctx.db.updateTable('users').set({ phone_number: null }).where('id', '=', user.id).execute();
    return loadUserInfo(ctx, user.id);
  }
  if (phone === user.phone_number) throw badInput('This is your phone number already.');
  const holder = await findUserByPhone(ctx.db, phone);
  if (holder && holder.id !== user.id) throw phoneTaken();
  await spendToken(ctx, input.verification_token!, { usages: ['PHONE_NUMBER_CHANGE', 'PHONE_NUMBER_VERIFICATION'], userId: user.id, phone });
  try {
    await ctx.db.updateTable('users').set({ phone_number: phone }).where('id', '=', user.id).execute();
  } catch (err) {
    // Bound by another account between the check and the change: the unique index decides.
    if (isUniqueViolation(err)) throw phoneTaken();
    throw err;
  }
  return loadUserInfo(ctx, user.id);
}
