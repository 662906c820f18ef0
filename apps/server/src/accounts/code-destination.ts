/**
 * Where a verification code goes: by e-mail or by text message, to which address or number, and for which account.
 * The usage decides the channel (the phone usages text, the e-mail ones mail, a password reset and a sign-in follow
 * the field they were given); `selected_channel` may only agree with it.
 */
import { isEmail, type VerificationUsage } from '@haul/shared';
import { refuseBeforeSetup } from './setup-state.js';
import { normalPhoneNumber } from '@haul/shared/phone-numbers';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { HttpError, badInput, unauthenticated } from '../http/errors.js';
import { takenMessage } from '../mail/taken-message.js';
import { codeMessage, type CodePurpose, type Locale } from '../mail/messages.js';
import { codeText, takenText, type SmsPurpose } from '../sms/sms-messages.js';
import { findUserByEmail, findUserById, findUserByPhone, normalEmail } from './users.repository.js';

export type CodeChannel = 'email' | 'sms';

/** What each usage's mail or text says; usages missing from both are refused. */
const MAIL_PURPOSE: Partial<Record<VerificationUsage, CodePurpose>> = {
  REGISTER: 'register',
  PASSWORD_RESET: 'reset',
  EMAIL_ADDRESS_CHANGE: 'change',
  DELETION: 'deletion',
  DEFAULT: 'confirm',
  EMAIL_ADDRESS_VERIFICATION: 'confirm',
  SIGN_IN: 'signin',
  REGISTER_SIGN_IN: 'signin',
};
const SMS_PURPOSE: Partial<Record<VerificationUsage, SmsPurpose>> = {
  PASSWORD_RESET: 'reset',
  // Signing in by a texted code: to the number an account has bound (a number never makes an account).
  SIGN_IN: 'signin',
  // Confirming it is you (sudo) by a code texted to the account's own bound number.
  DEFAULT: 'confirm',
  DELETION: 'deletion',
  PHONE_NUMBER_CHANGE: 'phone',
  PHONE_NUMBER_VERIFICATION: 'phone',
};
/** Usages whose text goes to the account's own bound number, whatever number the request names. */
const OWN_NUMBER: ReadonlySet<string> = new Set(['DEFAULT', 'DELETION']);
/** Usages about the signed-in account: they need its bearer token. */
const SIGNED_IN: ReadonlySet<string> = new Set(['DEFAULT', 'DELETION', 'EMAIL_ADDRESS_VERIFICATION', 'EMAIL_ADDRESS_CHANGE', 'PHONE_NUMBER_CHANGE', 'PHONE_NUMBER_VERIFICATION']);

export interface CodeRequest {
  usage: VerificationUsage;
  email?: string;
  phone_number?: string;
  selected_channel?: string;
}

export interface CodeDestination {
  channel: CodeChannel;
  /** The normalised e-mail address or E.164 number. */
  to: string;
  /** The account the code is for, when one is known (for a reset: the one holding the address or number). */
  user: UserRow | undefined;
}

/** The channel the request asks for: from the usage, the fields given and `selected_channel`, which must agree. */
function channelOf(input: CodeRequest): CodeChannel {
  const named = (input.selected_channel ?? '').toUpperCase();
  const asked: CodeChannel | null = !named ? null : named === 'VERIFICATION_EMAIL' || named === 'EMAIL' ? 'email' : named === 'VERIFICATION_PHONE' || named === 'SMS' ? 'sms' : null;
  if (named && !asked) throw badInput('selected_channel must be VERIFICATION_EMAIL (or EMAIL) or VERIFICATION_PHONE (or SMS).');
  const mail = MAIL_PURPOSE[input.usage];
  const sms = SMS_PURPOSE[input.usage];
  if (!mail && !sms) throw badInput(`Usage ${input.usage} sends no code.`);
  const wanted = asked ?? (sms && (!mail || (input.phone_number && !input.email)) ? 'sms' : 'email');
  if (wanted === 'sms' && !sms) throw badInput(`Usage ${input.usage} sends its code by e-mail, not by text message.`);
  if (wanted === 'email' && !mail) throw badInput(`Usage ${input.usage} sends its code by text message to phone_number, not by e-mail.`);
  return wanted;
}

function emailOf(input: CodeRequest): string {
  const email = normalEmail(input.email ?? '');
  if (!email) throw badInput(`Usage ${input.usage} needs the e-mail address to send the code to.`);
  if (!isEmail(email)) throw badInput('Please enter a valid email address.');
  return email;
}

function phoneOf(input: CodeRequest, fallback?: string | null): string {
  if (!input.phone_number && fallback) return fallback;
  if (!input.phone_number) throw badInput(`Usage ${input.usage} needs the phone number to send the code to.`);
  const phone = normalPhoneNumber(input.phone_number);
  if (!phone) throw badInput('Please enter a valid phone number with its country code, starting with + (like +44 7911 123456).');
  return phone;
}

/** Where the code goes and for whom; refuses what the usage does not allow before anything is counted or sent. */
export async function destinationOf(ctx: AppContext, input: CodeRequest, callerId: string | undefined): Promise<CodeDestination> {
  const channel = channelOf(input);
  if (SIGNED_IN.has(input.usage)) {
    const user = callerId ? await findUserById(ctx.db, callerId) : undefined;
    if (!user) throw unauthenticated(`Please sign in: usage ${input.usage} is about your account.`);
    // A change proves the new address or number; the account is proven by the sudo token the change also takes.
    if (channel === 'sms' && OWN_NUMBER.has(input.usage)) {
      // Only ever the account's own number: a code that confirms it is you goes nowhere else.
      if (!user.phone_number) throw badInput('This account has no phone number to text a code to.');
      return { channel, to: user.phone_number, user };
    }
    if (channel === 'sms') return { channel, to: phoneOf(input, input.usage === 'PHONE_NUMBER_VERIFICATION' ? user.phone_number : null), user };
    return { channel, to: input.usage === 'EMAIL_ADDRESS_CHANGE' ? emailOf(input) : user.email, user };
  }
  if (input.usage === 'REGISTER') await refuseBeforeSetup(ctx);
  if (input.usage === 'REGISTER' && ctx.config.registration === 'closed') throw new HttpError(403, 'permission_denied', 'Registration is closed on this server.');
  return { channel, to: channel === 'sms' ? phoneOf(input) : emailOf(input), user: undefined };
}

/** Who a code is for, once the request was counted. */
export interface ResolvedAccount {
  user: UserRow | undefined;
  /**
   * The address or number already belongs to another account (a sign-up, a change of address or number): the answer
   * is the same as for a free one, and the message says the truth instead of carrying a code.
   */
  taken: boolean;
}

/** The checks that read accounts, made once the request was counted; a reset finds the account holding the address or number. */
export async function resolveAccount(ctx: AppContext, usage: VerificationUsage, dest: CodeDestination): Promise<ResolvedAccount> {
  if (usage === 'REGISTER' || usage === 'EMAIL_ADDRESS_CHANGE') {
    if (await findUserByEmail(ctx.db, dest.to)) return { user: dest.user, taken: true };
  } else if (usage === 'PHONE_NUMBER_CHANGE' || usage === 'PHONE_NUMBER_VERIFICATION') {
    const holder = await findUserByPhone(ctx.db, dest.to);
    if (holder && holder.id !== dest.user?.id) return { user: dest.user, taken: true };
  } else if (usage === 'SIGN_IN' || usage === 'REGISTER_SIGN_IN') {
    return { user: dest.channel === 'sms' ? await findUserByPhone(ctx.db, dest.to) : await findUserByEmail(ctx.db, dest.to), taken: false };
  } else if (usage === 'PASSWORD_RESET') {
    return { user: dest.channel === 'sms' ? await findUserByPhone(ctx.db, dest.to) : await findUserByEmail(ctx.db, dest.to), taken: false };
  }
  return { user: dest.user, taken: false };
}

/** Tells a taken address or number that someone asked for a code to claim it, and that nothing changed. */
export function sendTakenNotice(ctx: AppContext, usage: VerificationUsage, dest: CodeDestination, locale: Locale): Promise<void> {
  if (dest.channel === 'sms') return ctx.sms.send(takenText({ to: dest.to, locale }));
  return ctx.mailer.send(takenMessage({ to: dest.to, purpose: usage === 'REGISTER' ? 'register' : 'change', locale }));
}

/** Sends the code the chosen way; rejects when the mail server or the gateway did not take it. */
export function sendCode(ctx: AppContext, usage: VerificationUsage, dest: CodeDestination, user: UserRow | undefined, code: string, minutes: number, locale: Locale, link?: string): Promise<void> {
  if (dest.channel === 'sms') return ctx.sms.send(codeText({ to: dest.to, code, purpose: SMS_PURPOSE[usage]!, minutes, locale }));
  return ctx.mailer.send(codeMessage({ to: dest.to, name: user?.name ?? '', code, purpose: MAIL_PURPOSE[usage]!, minutes, locale, link }));
}
