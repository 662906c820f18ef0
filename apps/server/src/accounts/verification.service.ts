/**
 * Verification codes (seed 001 §7): a 6-digit code mailed or texted for one usage and one address or number, kept as
 * a keyed hash, good for 10 minutes and one right answer, which is exchanged for a one-time verification token that
 * the call the code was for spends (a sign-up, a password reset, a sudo grant, a new address or phone number). Sending
 * and guessing are limited in the database.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { VerificationUsage } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { VerificationsTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { pickLocale } from '../mail/messages.js';
import { destinationOf, resolveAccount, sendCode, sendTakenNotice, type CodeChannel, type CodeRequest } from './code-destination.js';
import type { ClientInfo } from '../http/client-info.js';
import { normalEmail } from './users.repository.js';
import type { UserRow } from '../db/schema.js';
import { setupRequired } from './setup-state.js';

export const CODE_TTL_SECONDS = 600;
export const TOKEN_TTL_SECONDS = 600;
const HOUR = 3600_000;
/** Codes to one address or number: 6 an hour, then a minute doubling to an hour (the same for addresses with no account). */
const SEND_PER_ADDRESS: AttemptPolicy = { free: 5, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };
/** Codes asked for from one network, across addresses: no mail bombing of many people from one place. */
const SEND_PER_CLIENT: AttemptPolicy = { free: 20, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };
/** Answers to one code: 5, then it is dead for the rest of its life (the wait outlasts it). */
const CODE_TRIES: AttemptPolicy = { free: 4, baseDelayMs: CODE_TTL_SECONDS * 1000, maxDelayMs: CODE_TTL_SECONDS * 1000, fixed: true, forgetMs: CODE_TTL_SECONDS * 1000 };

export interface VerificationRequest extends CodeRequest {
  locale?: string;
}

export type VerificationRow = VerificationsTable;

const gone = () => new HttpError(400, 'invalid_grant', 'This code is not valid any more. Please request a new code.');
const tokenGone = () => new HttpError(400, 'invalid_grant', 'The verification is not valid any more (used, expired or for something else). Please request a new code.');

function codeHash(ctx: AppContext, id: string, code: string): string {
  return createHmac('sha256', ctx.secrets.tokenKey).update(`${id}:${code}`).digest('hex');
}

/**
 * Sends a code and answers its id. For PASSWORD_RESET nothing in the answer, its timing or its limits tells whether
 * the address or number has an account: an unknown (or disabled) one gets a row and an id too, and no message; the
 * message to a known one leaves in the background, so its round trip to the mail server or gateway does not show.
 * A claim of an address or number another account has (a sign-up, a change) is answered like any other, and its
 * message tells the owner so instead of carrying a code.
 */
export async function requestVerification(
  ctx: AppContext,
  input: VerificationRequest,
  callerId: string | undefined,
  client: ClientInfo & { acceptLanguage?: string; linkBase?: string },
): Promise<{ verification_id: string; expires_in: number }> {
  const dest = await destinationOf(ctx, input, callerId);

  const wait = await takeAttempt(ctx.db, ctx.clock.now(), [
    [`vsend|${clientKey(client.ip)}`, SEND_PER_CLIENT],
    [sendKey(dest.channel, dest.to, input.usage), SEND_PER_ADDRESS],
  ]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many codes requested.');

  const { user, taken } = await resolveAccount(ctx, input.usage, dest);

  const id = newId();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('verifications')
    // A taken address's row holds a code nobody is sent: the answer's id is as real as any other's.
    .values({ id, usage: input.usage, email: dest.to, user_id: user?.id ?? null, code_hash: codeHash(ctx, id, taken ? newSecret() : code), created_at: now, expires_at: now + CODE_TTL_SECONDS * 1000, verified_at: null, token_hash: null, token_expires_at: null, token_used_at: null })
    .execute();

  // Anyone may ask these for any address: nothing in the answer tells whether it has an account.
  const blind = BLIND.has(input.usage);
  if (blind && !(await mayReceive(ctx, input.usage, user))) return { verification_id: id, expires_in: CODE_TTL_SECONDS };
  const locale = pickLocale(input.locale, client.acceptLanguage);
  const link = input.usage === 'PASSWORD_RESET' ? resetLink(ctx, client.linkBase, id, dest.to) : undefined;
  const sending = taken ? sendTakenNotice(ctx, input.usage, dest, locale) : sendCode(ctx, input.usage, dest, user, code, CODE_TTL_SECONDS / 60, locale, link);
  if (blind) {
    // The sender logged the failure; the answer must not differ from an unknown address's.
    sending.catch(() => undefined);
  } else {
    await sending.catch(() => {
      throw new HttpError(503, 'unavailable', `The code could not be ${dest.channel === 'sms' ? 'texted' : 'mailed'} right now. Please try again in a few minutes.`);
    });
  }
  return { verification_id: id, expires_in: CODE_TTL_SECONDS };
}

const BLIND: ReadonlySet<VerificationUsage> = new Set(['PASSWORD_RESET', 'SIGN_IN', 'REGISTER_SIGN_IN']);

/**
 * Whether a code asked by anyone for this address goes out: to a live account; for REGISTER_SIGN_IN also to an address
 * without one when sign-in would make its account (registration open, setup done). Otherwise no message, same answer.
 */
async function mayReceive(ctx: AppContext, usage: VerificationUsage, user: UserRow | undefined): Promise<boolean> {
  if (user) return user.disabled_at === null;
  return usage === 'REGISTER_SIGN_IN' && ctx.config.registration === 'open' && !(await setupRequired(ctx));
}

/**
 * The reset page a reset mail links to, holding the code's id (never the code): with it, a person who did not ask on
 * this device (or whose reset the operator sent) types only the code and a new password. Its base is the caller's
 * (the console's own signed-in request) or the pinned HAUL_PUBLIC_URL; never the Host of an anonymous request, which
 * anyone could forge to send the owner a link to their own page. Unpinned and anonymous, the mail has no link.
 */
function resetLink(ctx: AppContext, base: string | undefined, id: string, to: string): string | undefined {
  const origin = base ?? (ctx.config.publicUrlPinned ? ctx.config.publicUrl : undefined);
  if (!origin) return undefined;
  return `${origin.replace(/\/+$/, '')}/drive/forget-password?${new URLSearchParams({ reset: id, address: to })}`;
}

/**
 * Budgets of codes per address or number, apart by who can ask: anyone can ask to claim an address (a sign-up, a
 * change of address or number), only its owner's session for the account's own business, and anyone for a reset. A
 * stranger using up the first never blocks the owner's reset or confirmations.
 */
const BUDGETS = ['claim', 'own', 'recovery'] as const;
const CLAIMS: ReadonlySet<string> = new Set(['REGISTER', 'EMAIL_ADDRESS_CHANGE', 'PHONE_NUMBER_CHANGE']);
const budgetOf = (usage: VerificationUsage) => (BLIND.has(usage) ? 'recovery' : CLAIMS.has(usage) ? 'claim' : 'own');

/** The attempt-limit key of `usage`'s codes sent to one address or number. */
export const sendKey = (channel: CodeChannel, to: string, usage: VerificationUsage) => `vsend|${budgetOf(usage)}|${channel === 'sms' ? 'p' : 'e'}:${to}`;

/** Every budget key of an address or number (account deletion drops them with the account). */
export const sendKeys = (channel: CodeChannel, to: string) => BUDGETS.map((b) => `vsend|${b}|${channel === 'sms' ? 'p' : 'e'}:${to}`);

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
  /** The number (E.164) the code must have been texted to. */
  phone?: string;
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
    (wants.phone === undefined || wants.phone === row.email) &&
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
