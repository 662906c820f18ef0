/** Access tokens: short-lived HS256 JWTs (jose, algorithm allow-list). Refresh tokens: random, stored hashed, rotated. */
import { SignJWT, jwtVerify } from 'jose';
import type { TokenResponse } from '@haul/shared';
import type { AppContext } from '../context.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';
import { unauthenticated } from '../http/errors.js';

const ISSUER = 'haul';
const AUDIENCE = 'haul-api';

export async function signAccessToken(ctx: AppContext, userId: string): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ctx.config.accessTokenTtlSeconds)
    .setJti(newId())
    .sign(ctx.secrets.tokenKey);
}

/** Returns the user id of a valid access token, or throws unauthenticated. */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, ctx.secrets.tokenKey, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(ctx.clock.now()),
    });
    if (!payload.sub) throw new Error('no subject');
    return payload.sub;
  } catch {
    throw unauthenticated('The access token is invalid or has expired.');
  }
}

/** Issues an access token and a new refresh token (stored as its SHA-256 only). */
export async function issueTokens(ctx: AppContext, userId: string): Promise<TokenResponse> {
  const refresh = newSecret();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('refresh_tokens')
    .values({
      id: newId(),
      user_id: userId,
      token_hash: sha256Hex(refresh),
      expires_at: now + ctx.config.refreshTokenTtlSeconds * 1000,
      created_at: now,
    })
    .execute();
  return {
    token_type: 'Bearer',
    access_token: await signAccessToken(ctx, userId),
    refresh_token: refresh,
    expires_in: ctx.config.accessTokenTtlSeconds,
    sub: userId,
  };
}

/** Consumes a refresh token (it works once) and returns its user id, or null when unknown or expired. */
export async function consumeRefreshToken(ctx: AppContext, refresh: string): Promise<string | null> {
  const row = await ctx.db
    .deleteFrom('refresh_tokens')
    .where('token_hash', '=', sha256Hex(refresh))
    .returning(['user_id', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= ctx.clock.now()) return null;
  return row.user_id;
}

export async function revokeRefreshToken(ctx: AppContext, refresh: string): Promise<void> {
  await ctx.db.deleteFrom('refresh_tokens').where('token_hash', '=', sha256Hex(refresh)).execute();
}
