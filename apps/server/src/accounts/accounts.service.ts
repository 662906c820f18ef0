/** Sign-up, sign-in, token refresh and password changes. */
import { isEmail, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type TokenResponse } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/schema.js';
import { HttpError, badInput } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { consumeRefreshToken, issueTokens } from './tokens.js';
import { findUserByEmail } from './users.repository.js';

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw badInput(`The password must have at least ${PASSWORD_MIN_LENGTH} characters.`);
  if (password.length > PASSWORD_MAX_LENGTH) throw badInput(`The password must have at most ${PASSWORD_MAX_LENGTH} characters.`);
}

/** Creates an account; used by sign-up and by the admin command. */
export async function createUser(
  ctx: AppContext,
  input: { email: string; password: string; name?: string; isAdmin?: boolean },
): Promise<UserRow> {
  const email = input.email.trim().toLowerCase();
  if (!isEmail(email)) throw badInput('Please enter a valid email address.');
  checkPassword(input.password);
  const name = (input.name ?? '').trim() || email.split('@')[0]!;
  if (name.length > 100) throw badInput('The name must have at most 100 characters.');
  if (await findUserByEmail(ctx.db, email)) throw new HttpError(409, 'already_exists', 'An account with this email already exists.');
  const now = ctx.clock.now();
  const row: UserRow = {
    id: newId(),
    email,
    name,
    password_hash: await hashPassword(input.password),
    is_admin: input.isAdmin ? 1 : 0,
    storage_limit: ctx.config.defaultQuotaBytes,
    premium_expire: null,
    created_at: now,
    password_updated_at: now,
  };
  try {
    await ctx.db.insertInto('users').values(row).execute();
  } catch (err) {
    // Two sign-ups racing for one email: the unique index decides.
    if (await findUserByEmail(ctx.db, email)) throw new HttpError(409, 'already_exists', 'An account with this email already exists.');
    throw err;
  }
  return row;
}

export async function signUp(ctx: AppContext, input: { email: string; password: string; name?: string }): Promise<TokenResponse> {
  if (!ctx.config.registrationOpen) throw new HttpError(403, 'permission_denied', 'Registration is closed on this server.');
  const user = await createUser(ctx, input);
  return issueTokens(ctx, user.id);
}

export async function signIn(ctx: AppContext, username: string, password: string): Promise<TokenResponse> {
  const user = await findUserByEmail(ctx.db, username.trim());
  const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
  if (!user || !ok) throw new HttpError(400, 'invalid_grant', 'The email or password is incorrect.');
  return issueTokens(ctx, user.id);
}

export async function refresh(ctx: AppContext, refreshToken: string): Promise<TokenResponse> {
  const userId = await consumeRefreshToken(ctx, refreshToken);
  if (!userId) throw new HttpError(401, 'invalid_grant', 'The refresh token is invalid or has expired. Please sign in again.');
  return issueTokens(ctx, userId);
}

/** Sets a new password and ends every session of the account. */
export async function setPassword(ctx: AppContext, userId: string, password: string): Promise<void> {
  checkPassword(password);
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, password_updated_at: ctx.clock.now() }).where('id', '=', userId).execute();
    await trx.deleteFrom('refresh_tokens').where('user_id', '=', userId).execute();
  });
}
