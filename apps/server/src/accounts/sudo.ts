/**
 * Sudo tokens: proof, a few minutes old, that the person at this session knows the password or reads the account's
 * mail. A JWT of its own audience (so it is never taken as an access token, nor an access token as one) naming the
 * user, the session and the account's session epoch: it works only in the session that asked for it, and dies with
 * that session or when the epoch moves on (a password change, sign-out everywhere), so it cannot be spent twice on
 * a password change.
 */
import { SignJWT, jwtVerify } from 'jose';
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { clearAttempts, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { hasPassword } from '../providers/passwordless.js';
import { verifyPassword } from './passwords.js';
import { checkSecondFactor } from './two-factor.js';
import { issuedInFuture, type Caller } from '../http/access-tokens.js';
import { findUserById } from './users.repository.js';
import { findToken, spendToken } from './verification.service.js';

export const SUDO_TTL_SECONDS = 300;
const ISSUER = 'haul';
const AUDIENCE = 'haul-sudo';
/** Someone holding a stolen access token guessing the password: as slow as sign-in guesses from one client. */
const SUDO_GUESSES: AttemptPolicy = { free: 10, baseDelayMs: 1000, maxDelayMs: 3600_000, forgetMs: 24 * 3600_000 };

const badSudo = () => new HttpError(400, 'invalid_grant', 'Please confirm it is you again: the confirmation has expired or belongs to another session.');

/** Grants a sudo token for the caller's password, or for a verification token of a code sent to its own address or number. */
export async function grantSudo(ctx: AppContext, caller: Caller, proof: { password?: string; verification_token?: string; verification_code?: string }): Promise<{ sudo_token: string; expires_in: number }> {
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw new HttpError(400, 'invalid_grant', 'The account no longer exists.');
  if (proof.password) {
    const key = `sudo|u:${user.id}`;
    const wait = await takeAttempt(ctx.db, ctx.clock.now(), [[key, SUDO_GUESSES]]);
    if (wait > 0) throw tooManyAttempts(wait, 'Too many wrong passwords.');
    if (!(await verifyPassword(user.password_hash, proof.password))) throw new HttpError(400, 'invalid_grant', 'The password is incorrect.');
    await clearAttempts(ctx.db, [key]);
  } else if (proof.verification_token) {
    // A code sent to the account's own address, or texted to its own bound number.
    const usages = ['DEFAULT', 'DELETION', 'EMAIL_ADDRESS_VERIFICATION'] as const;
    const pending = await findToken(ctx, proof.verification_token, { usages, userId: user.id });
    const phone = user.phone_number && pending.email === user.phone_number ? user.phone_number : null;
    await spendToken(ctx, proof.verification_token, { usages, userId: user.id, ...(phone ? { phone } : { email: user.email }) });
  } else {
    throw badInput('Please send your password or a verification token.');
  }
  // Once the account has an authenticator app, a sudo token also takes a code from it.
  await checkSecondFactor(ctx, user.id, proof.verification_code);
  const now = Math.floor(ctx.clock.now() / 1000);
  const token = await new SignJWT({ sid: caller.sessionId, ep: caller.epoch })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + SUDO_TTL_SECONDS)
    .sign(ctx.secrets.tokenKey);
  return { sudo_token: token, expires_in: SUDO_TTL_SECONDS };
}

/** Throws invalid_grant unless `token` is a live sudo token of the caller's own session. */
export async function checkSudo(ctx: AppContext, caller: Caller, token: string): Promise<void> {
  try {
    const { payload } = await jwtVerify(token, ctx.secrets.tokenKey, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: new Date(ctx.clock.now()),
    });
    if (!issuedInFuture(payload.iat, ctx.clock.now()) && payload.sub === caller.userId && payload.sid === caller.sessionId && payload.ep === caller.epoch) return;
  } catch {
    // Falls through to the same answer as a token of another session.
  }
  throw badSudo();
}

/**
 * Before a lasting way into the account is made (an app password, a device approval, an app allowed): a stolen access
 * token alone must not buy one. An account without a password has no password to prove; it needs a sudo token earned
 * with a mailed code, which the web app does not ask for yet, so for now it is let through (what it makes still dies
 * with the session that made it).
 */
export async function checkSudoForCredential(ctx: AppContext, caller: Caller, token: string | undefined): Promise<void> {
  const user = await findUserById(ctx.db, caller.userId);
  if (user && hasPassword(user.password_hash)) await checkSudo(ctx, caller, token ?? '');
}
