/**
 * Verification codes (seed 001 §7): a 6-digit code mailed for one usage and one address, kept as a keyed hash, good
 * for 10 minutes and one right answer, which is exchanged for a one-time verification token that the call the code was
 * for spends (a sign-up, a password reset, a sudo grant). Sending and guessing are limited in the database.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { isEmail, type VerificationUsage } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { UserRow, VerificationsTable } from '../db/schema.js';
import { HttpError, badInput, unauthenticated } from '../http/errors.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { codeMessage, pickLocale, type CodePurpose } from '../mail/messages.js';
import type { ClientInfo } from './tokens.js';
import { findUserByEmail, findUserById, normalEmail } from './users.repository.js';

export const CODE_TTL_SECONDS = 600;
export const TOKEN_TTL_SECONDS = 600;
const HOUR = 3600_000;
/** Codes to one address: 6 an hour, then a minute doubling to an hour (the same for addresses with no account). */
const SEND_PER_ADDRESS: AttemptPolicy = { free: 5, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };
/** Codes asked for from one network, across addresses: no mail bombing of many people from one place. */
const SEND_PER_CLIENT: AttemptPolicy = { free: 20, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };
/** Answers to one code: 5, then it is dead for the rest of its life (the wait outlasts it). */
const CODE_TRIES: AttemptPolicy = { free: 4, baseDelayMs: CODE_TTL_SECONDS * 1000, maxDelayMs: CODE_TTL_SECONDS * 1000, fixed: true, forgetMs: CODE_TTL_SECONDS * 1000 };

/** What each usage's mail says; usages missing here are refused. */
const PURPOSE: Partial<Record<VerificationUsage, CodePurpose>> = {
  REGISTER: 'register',
  PASSWORD_RESET: 'reset',
  EMAIL_ADDRESS_CHANGE: 'change',
  DELETION: 'deletion',
  DEFAULT: 'confirm',
  EMAIL_ADDRESS_VERIFICATION: 'confirm',
};
/** Usages about the signed-in account: they need its bearer token. */
const SIGNED_IN: ReadonlySet<string> = new Set(['DEFAULT', 'DELETION', 'EMAIL_ADDRESS_VERIFICATION', 'EMAIL_ADDRESS_CHANGE']);

export interface VerificationRequest {
  usage: VerificationUsage;
  email?: string;
  phone_number?: string;
  locale?: string;
  selected_channel?: string;
}

export type VerificationRow = VerificationsTable;

const gone = () => new HttpError(400, 'invalid_grant', 'This code is not valid any more. Please request a new code.');
const tokenGone = () => new HttpError(400, 'invalid_grant', 'The verification is not valid any more (used, expired or for something else). Please request a new code.');

function codeHash(ctx: AppContext, id: string, code: string): string {
  return createHmac('sha256', ctx.secrets.tokenKey).update(`${id}:${code}`).digest('hex');
}

function checkChannel(input: VerificationRequest): void {
  const channel = (input.selected_channel ?? '').toUpperCase();
  if (input.phone_number || input.usage.startsWith('PHONE_') || /PHONE|SMS/.test(channel)) {
    throw badInput('Codes are sent by e-mail only: text messages are not supported. Please use your e-mail address.');
  }
  if (channel && channel !== 'VERIFICATION_EMAIL' && channel !== 'EMAIL') throw badInput('selected_channel must be VERIFICATION_EMAIL: codes are sent by e-mail only.');
  if (!PURPOSE[input.usage]) throw badInput('Signing in with a code is not supported. Please sign in with your password, or reset it (usage PASSWORD_RESET).');
}

function addressOf(input: VerificationRequest): string {
  const email = normalEmail(input.email ?? '');
  if (!email) throw badInput(`Usage ${input.usage} needs the e-mail address to send the code to.`);
  if (!isEmail(email)) throw badInput('Please enter a valid email address.');
  return email;
}

/**
 * Mails a code and answers its id. For PASSWORD_RESET nothing in the answer, its timing or its limits tells whether
 * the address has an account: an unknown (or disabled) one gets a row and an id too, and no mail; the mail to a known
 * one leaves in the background, so its round trip to the mail server does not show.
 */
export async function requestVerification(
  ctx: AppContext,
  input: VerificationRequest,
  callerId: string | undefined,
  client: ClientInfo & { acceptLanguage?: string },
): Promise<{ verification_id: string; expires_in: number }> {
  checkChannel(input);
  let user: UserRow | undefined;
  let email: string;
  if (SIGNED_IN.has(input.usage)) {
    user = callerId ? await findUserById(ctx.db, callerId) : undefined;
    if (!user) throw unauthenticated(`Please sign in: usage ${input.usage} is about your account.`);
    // A change of address proves the new address; the old one is proven by the sudo token the change also takes.
    email = input.usage === 'EMAIL_ADDRESS_CHANGE' ? addressOf(input) : user.email;
  } else {
    email = addressOf(input);
  }
  if (input.usage === 'REGISTER' && !ctx.config.registrationOpen) throw new HttpError(403, 'permission_denied', 'Registration is closed on this server.');

  const wait = await takeAttempt(ctx.db, ctx.clock.now(), [
    [`vsend|${clientKey(client.ip)}`, SEND_PER_CLIENT],
    [`vsend|e:${email}`, SEND_PER_ADDRESS],
  ]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many codes requested.');

  if (input.usage === 'REGISTER' || input.usage === 'EMAIL_ADDRESS_CHANGE') {
    // Sign-up says so too: telling it before the code is what a person signing up wants.
    if (await findUserByEmail(ctx.db, email)) throw new HttpError(409, 'already_exists', 'An account with this email already exists.');
  } else if (input.usage === 'PASSWORD_RESET') {
    user = await findUserByEmail(ctx.db, email);
  }

  const id = newId();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('verifications')
    .values({ id, usage: input.usage, email, user_id: user?.id ?? null, code_hash: codeHash(ctx, id, code), created_at: now, expires_at: now + CODE_TTL_SECONDS * 1000, verified_at: null, token_hash: null, token_expires_at: null, token_used_at: null })
    .execute();

  const blind = input.usage === 'PASSWORD_RESET';
  if (blind && (!user || user.disabled_at !== null)) return { verification_id: id, expires_in: CODE_TTL_SECONDS };
  const message = codeMessage({
    to: email,
    name: user?.name ?? '',
    code,
    purpose: PURPOSE[input.usage]!,
    minutes: CODE_TTL_SECONDS / 60,
    locale: pickLocale(input.locale, client.acceptLanguage),
  });
  const sending = ctx.mailer.send(message);
  if (blind) {
    // The mailer logged the failure; the answer must not differ from an unknown address's.
    sending.catch(() => undefined);
  } else {
    await sending.catch(() => {
      throw new HttpError(503, 'unavailable', 'The code could not be mailed right now. Please try again in a few minutes.');
    });
  }
  return { verification_id: id, expires_in: CODE_TTL_SECONDS };
}

/** Exchanges a right code for a one-time verification token. Five answers per code, counted before each check. */
export async function verifyCode(ctx: AppContext, id: string, code: string): Promise<{ verification_token: string; expires_in: number }> {
  const row = await ctx.db.selectFrom('verifications').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.verified_at !== null || row.expires_at <= ctx.clock.now()) throw gone();
  const wait = await takeAttempt(ctx.db, ctx.clock.now(), [[`vcode|${id}`, CODE_TRIES]]);
  if (wait > 0) throw new HttpError(400, 'invalid_grant', 'Too many wrong codes: this one no longer works. Please request a new code.');
  const given = Buffer.from(codeHash(ctx, id, code.replace(/\s+/g, '')), 'hex');
  if (!timingSafeEqual(given, Buffer.from(row.code_hash, 'hex'))) throw new HttpError(400, 'invalid_grant', 'The code is wrong. Please check it and try again.');
  const token = newSecret();
  const now = ctx.clock.now();
  // Setting verified_at is the claim: of two right answers at once, one gets a token.
  const claimed = await ctx.db
    .updateTable('verifications')
    .set({ verified_at: now, token_hash: sha256Hex(token), token_expires_at: now + TOKEN_TTL_SECONDS * 1000 })
    .where('id', '=', id)
    .where('verified_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw gone();
  return { verification_token: token, expires_in: TOKEN_TTL_SECONDS };
}

export interface TokenWants {
  usages: readonly VerificationUsage[];
  /** The address the code must have gone to. */
  email?: string;
  /** The account the code must have been sent for. */
  userId?: string;
}

/** The live verification behind a token that fits `wants`, without spending it; throws invalid_grant otherwise. */
export async function findToken(ctx: AppContext, token: string, wants: TokenWants): Promise<VerificationRow> {
  const row = await ctx.db.selectFrom('verifications').selectAll().where('token_hash', '=', sha256Hex(token)).executeTakeFirst();
  const fits =
    row &&
    row.token_used_at === null &&
    (row.token_expires_at ?? 0) > ctx.clock.now() &&
    (wants.usages as readonly string[]).includes(row.usage) &&
    (wants.email === undefined || normalEmail(wants.email) === row.email) &&
    (wants.userId === undefined || wants.userId === row.user_id);
  if (!fits) throw tokenGone();
  return row;
}

/** Spends a token that fits `wants`: the first spend wins, any other is refused. */
export async function spendToken(ctx: AppContext, token: string, wants: TokenWants): Promise<VerificationRow> {
  const row = await findToken(ctx, token, wants);
  const r = await ctx.db.updateTable('verifications').set({ token_used_at: ctx.clock.now() }).where('id', '=', row.id).where('token_used_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw tokenGone();
  return row;
}

/** Drops verifications a day past their creation (codes and tokens last minutes); run by the hourly purge. */
export async function purgeVerifications(ctx: AppContext): Promise<number> {
  const r = await ctx.db.deleteFrom('verifications').where('created_at', '<', ctx.clock.now() - 24 * HOUR).executeTakeFirst();
  return Number(r.numDeletedRows);
}
