/**
 * Changing the account's e-mail address (seed 001 §7, "bind phone or e-mail"): a sudo token proves the person at the
 * session, a verification token of usage EMAIL_ADDRESS_CHANGE proves the new address. The old address is told, so an
 * owner whose session was taken learns of it. Phone numbers are refused: no text-message gateway is wired in.
 */
import { isEmail, type UserInfo } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { addressChangedMessage, pickLocale } from '../mail/messages.js';
import { checkSudo } from './sudo.js';
import type { Caller } from './tokens.js';
import { presentUser } from './user.presenter.js';
import { findUserByEmail, findUserById, normalEmail } from './users.repository.js';
import { spendToken } from './verification.service.js';

export async function changeContact(
  ctx: AppContext,
  caller: Caller,
  input: { sudo_token: string; verification_token: string; email?: string; phone_number?: string },
  acceptLanguage?: string,
): Promise<UserInfo> {
  if (input.phone_number) throw badInput('Phone numbers cannot be added on this server: codes go by e-mail only.');
  const email = normalEmail(input.email ?? '');
  if (!isEmail(email)) throw badInput('Please enter a valid email address.');
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
  return presentUser({ ...user, email }, ctx.clock.now());
}
