/** Sign-up, sign-in, token refresh and password changes (by an operator, with a sudo token, or by a mailed code). */
import { normalPhoneNumber } from '@haul/shared/phone-numbers';
import { isEmail, looksLikePhoneNumber, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type TokenResponse } from '@haul/shared';
import { signupNeedsVerification } from '../config.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { HttpError, badInput } from '../http/errors.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { clearAttempts, clientKey, refundAttempt, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { checkSudo } from './sudo.js';
import { checkSecondFactor } from './two-factor.js';
import { endAllSessions, issueTokens, knownAddress, rotateRefreshToken } from './tokens.js';
import type { ClientInfo } from '../http/client-info.js';
import { type Caller } from '../http/access-tokens.js';
import { findUserByEmail, findUserById, findUserByPhone, newUserRow, normalEmail } from './users.repository.js';
import { findToken, spendToken } from './verification.service.js';
import { recordInvitation } from '../invitations/invitation-rewards.js';
import { grantTrial } from '../plans/trial.js';
import { findInviter } from '../invitations/invite-codes.js';
import { refuseBeforeSetup } from './setup-state.js';
import { recordAudit } from '../audit/audit.repository.js';

const HOUR = 3600_000;
/** Guesses at one account from one client: 10 free, then 1 s doubling to an hour. */
const SIGNIN_PER_CLIENT: AttemptPolicy = { free: 10, baseDelayMs: 1000, maxDelayMs: HOUR, forgetMs: 24 * HOUR };
/** One client guessing across many accounts. */
const SIGNIN_PER_ADDRESS: AttemptPolicy = { free: 100, baseDelayMs: 1000, maxDelayMs: HOUR, forgetMs: 24 * HOUR };
/**
 * One account guessed at from many addresses: past 30 tries a day, addresses the account has no session from share a
 * slow lane of one try per 10 s. It never closes, and the owner's own addresses skip it, so nobody is locked out.
 */
const SIGNIN_PER_ACCOUNT: AttemptPolicy = { free: 30, baseDelayMs: 10_000, maxDelayMs: 10_000, fixed: true, forgetMs: 24 * HOUR };
const SIGNUP_PER_ADDRESS: AttemptPolicy = { free: 20, baseDelayMs: 60_000, maxDelayMs: HOUR, forgetMs: HOUR };


/** The password rules of sign-up, which every new password follows. */
export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw badInput(`The password must have at least ${PASSWORD_MIN_LENGTH} characters.`);
  if (password.length > PASSWORD_MAX_LENGTH) throw badInput(`The password must have at most ${PASSWORD_MAX_LENGTH} characters.`);
}

/** Creates an account; used by sign-up and by the admin command. `made` runs in the transaction that inserts it. */
export async function createUser(
  ctx: AppContext,
  input: { email: string; password: string; name?: string; isAdmin?: boolean },
  made?: (trx: Db, user: UserRow) => Promise<void>,
): Promise<UserRow> {
  const email = normalEmail(input.email);
  if (!isEmail(email)) throw badInput('Please enter a valid email address.');
  checkPassword(input.password);
  const name = (input.name ?? '').trim() || email.split('@')[0]!;
  if (name.length > 100) throw badInput('The name must have at most 100 characters.');
  if (await findUserByEmail(ctx.db, email)) throw new HttpError(409, 'already_exists', 'An account with this email already exists.');
  const now = ctx.clock.now();
  const row = newUserRow(ctx.config, now, { email, name, passwordHash: await hashPassword(input.password), isAdmin: input.isAdmin });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(row).execute();
      await made?.(trx, row);
    });
  } catch (err) {
    // Two sign-ups racing for one email: the unique index decides.
    if (await findUserByEmail(ctx.db, email)) throw new HttpError(409, 'already_exists', 'An account with this email already exists.');
    throw err;
  }
  return row;
}

/**
 * Creates an account and signs it in. When the server asks for verified addresses, the verification token (usage
 * REGISTER, this address) is checked first and spent only once the account exists, so a refused password does not
 * cost the code; two sign-ups racing with one token meet the unique address.
 */
export async function signUp(
  ctx: AppContext,
  input: { email: string; password: string; name?: string; verification_token?: string; invitation_code?: string },
  client: ClientInfo,
): Promise<TokenResponse> {
  await refuseBeforeSetup(ctx);
  if (ctx.config.registration === 'closed') throw new HttpError(403, 'permission_denied', 'Registration is closed on this server.');
  if (ctx.config.registration === 'invite' && !(input.invitation_code && (await findInviter(ctx.db, input.invitation_code)))) {
    throw new HttpError(403, 'permission_denied', 'This server takes new accounts by invitation only: open the invitation link you were sent.');
  }
  const wait = await takeAttempt(ctx.db, ctx.clock.now(), [[`signup|${clientKey(client.ip)}`, SIGNUP_PER_ADDRESS]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many sign-ups from your network.');
  const verified = signupNeedsVerification(ctx.config);
  if (verified && !input.verification_token) {
    throw badInput('Please confirm your e-mail address first: request a code (usage REGISTER), then sign up with its verification_token.');
  }
  const wants = { usages: ['REGISTER'] as const, email: input.email };
  if (verified) await findToken(ctx, input.verification_token!, wants);
  // A verified sign-up has proved its address by now: an invitation is rewarded at once either way, as is the trial.
  const user = await createUser(ctx, input, async (trx, row) => {
    await grantTrial(ctx, trx, row);
    await recordInvitation(ctx, trx, row, input.invitation_code, client.ip);
  });
  if (verified) await spendToken(ctx, input.verification_token!, wants);
  return issueTokens(ctx, user.id, client);
}

/**
 * The account a sign-in names: by phone number when `phone_number` came or the username looks like one (seed 001),
 * else by e-mail address; `key` is the identity the limits count when no account has it.
 */
async function signInAccount(ctx: AppContext, input: { username?: string; phone_number?: string }): Promise<{ user: UserRow | undefined; key: string }> {
  const name = input.phone_number ?? input.username ?? '';
  if (!name.trim()) throw badInput('Please enter your e-mail address or phone number.');
  if (input.phone_number !== undefined || looksLikePhoneNumber(name)) {
    const phone = normalPhoneNumber(name);
    if (!phone) throw badInput('Please enter the phone number with its country code, starting with + (like +44 7911 123456).');
    return { user: await findUserByPhone(ctx.db, phone), key: `p:${phone}` };
  }
  const email = normalEmail(name);
  return { user: await findUserByEmail(ctx.db, email), key: `e:${email}` };
}

/**
 * Checks a password. Every limit is keyed on what the lookup uses (the account when it exists, else the normalised
 * address or number), counted before the check, and the same for known and unknown ones, so neither the answer, its
 * timing nor its limits tell which accounts exist.
 */
export async function signIn(
  ctx: AppContext,
  input: { username?: string; phone_number?: string; password: string; verification_code?: string },
  client: ClientInfo,
): Promise<TokenResponse> {
  const { password, verification_code: secondFactor } = input;
  const found = await signInAccount(ctx, input);
  const user = found.user;
  const who = user ? `u:${user.id}` : found.key;
  const from = clientKey(client.ip);
  const keys: [string, AttemptPolicy][] = [
    [`signin|${from}|${who}`, SIGNIN_PER_CLIENT],
    [`signin|${from}`, SIGNIN_PER_ADDRESS],
  ];
  const known = !!user && (await knownAddress(ctx.db, user.id, client.ip));
  if (!known) keys.push([`signin|${who}`, SIGNIN_PER_ACCOUNT]);
  const wait = await takeAttempt(ctx.db, ctx.clock.now(), keys);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many sign-in attempts.');
  const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
  if (!user || !ok) throw new HttpError(400, 'invalid_grant', found.key.startsWith('p:') ? 'The phone number or password is incorrect.' : 'The email or password is incorrect.');
  // A right password is no guess: this client starts over, and the account-wide count gets its try back.
  await clearAttempts(ctx.db, [keys[0]![0]]);
  if (keys[2]) await refundAttempt(ctx.db, keys[2][0], keys[2][1]);
  if (user.disabled_at !== null) throw new HttpError(403, 'permission_denied', 'This account is disabled. Please contact the operator of this server.');
  await checkSecondFactor(ctx, user.id, secondFactor);
  const tokens = await issueTokens(ctx, user.id, client);
  if (!known) await recordAudit(ctx.db, { action: 'sign_in.new_network', subjectId: user.id, ip: client.ip, details: { device: client.userAgent.slice(0, 200) } }, ctx.clock.now());
  return tokens;
}

export async function refresh(ctx: AppContext, refreshToken: string): Promise<TokenResponse> {
  const tokens = await rotateRefreshToken(ctx, refreshToken);
  if (!tokens) throw new HttpError(401, 'invalid_grant', 'The refresh token is invalid or has expired. Please sign in again.');
  return tokens;
}

/** Sets a new password and ends every session of the account but `keepSessionId` (the one that changed it). */
export async function setPassword(ctx: AppContext, userId: string, password: string, keepSessionId?: string): Promise<void> {
  checkPassword(password);
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, password_updated_at: ctx.clock.now() }).where('id', '=', userId).execute();
    await endAllSessions(trx, userId, keepSessionId);
  });
}

/** A signed-in change with a sudo token of this session: the other sessions end, this one stays. */
export async function changePassword(ctx: AppContext, caller: Caller, sudoToken: string, password: string): Promise<void> {
  await checkSudo(ctx, caller, sudoToken);
  await setPassword(ctx, caller.userId, password, caller.sessionId);
}

/**
 * A forgotten password: a verification token of usage PASSWORD_RESET (mailed, or texted to the account's number) sets
 * a new one, ends every session, and signs in afterwards (the person just proved the address or number, and a
 * "forgot password" page should land them in their drive).
 */
export async function resetPassword(
  ctx: AppContext,
  input: { verification_token: string; new_password: string; email?: string; phone_number?: string; verification_code?: string },
  client: ClientInfo,
): Promise<TokenResponse> {
  let phone: string | undefined;
  if (input.phone_number !== undefined) {
    phone = normalPhoneNumber(input.phone_number) ?? undefined;
    if (!phone) throw badInput('Please enter a valid phone number with its country code, starting with + (like +44 7911 123456).');
  }
  checkPassword(input.new_password);
  const wants = { usages: ['PASSWORD_RESET'] as const, email: input.email, phone };
  // Reading the mail is not enough for an account with an authenticator app: its code is checked first, before the
  // token is spent, so a person asked for it can send it with the same token.
  const pending = await findToken(ctx, input.verification_token, wants);
  if (pending.user_id) await checkSecondFactor(ctx, pending.user_id, input.verification_code);
  const row = await spendToken(ctx, input.verification_token, wants);
  const user = row.user_id ? await findUserById(ctx.db, row.user_id) : undefined;
  // An address or number with no account got a row and no message: its token (only ever guessed) resets nothing; nor
  // does one whose address or number left the account since.
  if (!user || (user.email !== row.email && user.phone_number !== row.email)) throw new HttpError(400, 'invalid_grant', 'The verification is not valid any more (used, expired or for something else). Please request a new code.');
  if (user.disabled_at !== null) throw new HttpError(403, 'permission_denied', 'This account is disabled. Please contact the operator of this server.');
  await setPassword(ctx, user.id, input.new_password);
  await recordAudit(ctx.db, { action: 'password.changed', subjectId: user.id, ip: client.ip, details: { by: 'reset' } }, ctx.clock.now());
  // Guesses this client made before it remembered nothing stand in its way any more.
  await clearAttempts(ctx.db, [`signin|${clientKey(client.ip)}|u:${user.id}`]);
  return issueTokens(ctx, user.id, client);
}

/** Disables an account (every session and link ends; it cannot sign in) or enables it again. */
export async function setDisabled(ctx: AppContext, userId: string, disabled: boolean): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ disabled_at: disabled ? ctx.clock.now() : null }).where('id', '=', userId).execute();
    if (disabled) await endAllSessions(trx, userId);
  });
}
