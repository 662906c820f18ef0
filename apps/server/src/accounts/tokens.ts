/**
 * Access tokens: short-lived HS256 JWTs (jose, algorithm allow-list) naming their session, which is checked on every
 * call, so ending a session (sign-out, sign-out everywhere, a password change, a disabled account) ends its access
 * tokens at once. Refresh tokens: stored hashed, rotated on each use inside their session; a second use of one is a
 * replay (RFC 6819 §5.2.2.3) and ends the whole session, the token already issued from it included, but within a short
 * grace window that answers the same successor again.
 */
import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { TokenResponse } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';
import { unauthenticated } from '../http/errors.js';
import { clientKey } from '../limits/attempt-limiter.js';
import { endSessionAndOffspring } from './session-offspring.js';

const ISSUER = 'haul';
const AUDIENCE = 'haul-api';
/** How far in the future a token's `iat` may lie: processes on several machines keep slightly different clocks. */
const CLOCK_SKEW_SECONDS = 60;

/** Whether a token of ours says it was issued in the future: only this server signs them, so it was not (or the clock went back). */
export const issuedInFuture = (iat: unknown, nowMs: number): boolean => typeof iat !== 'number' || iat > Math.floor(nowMs / 1000) + CLOCK_SKEW_SECONDS;

/** Who is calling, as a verified access token says. */
export interface Caller {
  userId: string;
  sessionId: string;
  /** The account's session epoch: download links are signed with it, so sign-out-everywhere ends them too. */
  epoch: number;
  /** The third-party app whose session this is (OAuth), and what it was granted; null for the person's own sessions. */
  clientId: string | null;
  scope: string | null;
}

/** Where a sign-in comes from: kept with its session (the address lets the owner past the account-wide slow lane). */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** What a device signed in by code called itself ("Living room TV"). */
  deviceName?: string;
  /** The session that approved this sign-in (a device code): the new one is born of it. */
  parentSessionId?: string | null;
}

export async function signAccessToken(ctx: AppContext, userId: string, sessionId: string): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ctx.config.accessTokenTtlSeconds)
    .setJti(newId())
    .sign(ctx.secrets.tokenKey);
}

/** The token key as a WebCrypto key, imported once: given the raw bytes, jose imports them again on every call. */
const verifyKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function verifyKey(raw: Uint8Array): Promise<CryptoKey> {
  let key = verifyKeys.get(raw);
  if (!key) verifyKeys.set(raw, (key = crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])));
  return key;
}

/**
 * Subject, session and expiry of access tokens whose signature and claims were checked, by token and key. A token is
 * signed once and presented on every call; checking its HMAC again (~0.1 ms through WebCrypto) told nothing new. The
 * expiry is still checked on every call, and the session below too, which is what ends a token at sign-out.
 */
interface CheckedClaims {
  userId: string;
  sessionId: string;
  exp: number;
}
const checked = new WeakMap<Uint8Array, Map<string, CheckedClaims>>();
/** Tokens live an hour: forgetting them all when this many are held costs one check more each. */
const CHECKED_MAX = 10_000;

async function checkToken(ctx: AppContext, token: string): Promise<CheckedClaims> {
  let seen = checked.get(ctx.secrets.tokenKey);
  if (!seen) checked.set(ctx.secrets.tokenKey, (seen = new Map()));
  const hit = seen.get(token);
  // As jose decides: expired once the current second reaches `exp`.
  if (hit && hit.exp > Math.floor(ctx.clock.now() / 1000)) return hit;
  seen.delete(token);
  try {
    const { payload } = await jwtVerify(token, await verifyKey(ctx.secrets.tokenKey), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: new Date(ctx.clock.now()),
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('no subject or session');
    if (issuedInFuture(payload.iat, ctx.clock.now())) throw new Error('issued in the future');
    const claims = { userId: payload.sub, sessionId: payload.sid, exp: payload.exp! };
    if (seen.size >= CHECKED_MAX) seen.clear();
    seen.set(token, claims);
    return claims;
  } catch {
    throw unauthenticated('The access token is invalid or has expired.');
  }
}

/** The account of an access token already verified here and not expired, checking nothing else (turns between clients). */
export function verifiedTokenAccount(ctx: AppContext, token: string): string | undefined {
  const hit = checked.get(ctx.secrets.tokenKey)?.get(token);
  return hit && hit.exp > Math.floor(ctx.clock.now() / 1000) ? hit.userId : undefined;
}

/** The caller of a valid access token whose session is live, or throws unauthenticated. */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<Caller> {
  const { userId, sessionId } = await checkToken(ctx, token);
  const live = await ctx.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.session_epoch', 'sessions.client_id', 'sessions.scope'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.expires_at', '>', ctx.clock.now())
    .where('users.disabled_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!live) throw unauthenticated('You were signed out. Please sign in again.');
  return { userId, sessionId, epoch: live.session_epoch, clientId: live.client_id, scope: live.scope };
}

export async function newRefreshToken(ctx: AppContext, db: Db, userId: string, sessionId: string): Promise<string> {
  return (await insertRefreshToken(ctx, db, userId, sessionId)).secret;
}

async function insertRefreshToken(ctx: AppContext, db: Db, userId: string, sessionId: string, secret = newSecret()): Promise<{ id: string; secret: string }> {
  const id = newId();
  const now = ctx.clock.now();
  await db
    .insertInto('refresh_tokens')
    .values({ id, user_id: userId, session_id: sessionId, token_hash: sha256Hex(secret), expires_at: now + ctx.config.refreshTokenTtlSeconds * 1000, created_at: now, used_at: null, replaced_by: null })
    .execute();
  return { id, secret };
}

async function tokenResponse(ctx: AppContext, userId: string, sessionId: string, refresh: string): Promise<TokenResponse> {
  return {
    token_type: 'Bearer',
    access_token: await signAccessToken(ctx, userId, sessionId),
    refresh_token: refresh,
    expires_in: ctx.config.accessTokenTtlSeconds,
    sub: userId,
  };
}

/** Starts a session (a sign-in or sign-up) and issues its first tokens. */
export async function issueTokens(ctx: AppContext, userId: string, client: ClientInfo): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const sessionId = newId();
  const refresh = await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('sessions')
      .values({
        id: sessionId,
        user_id: userId,
        ip: clientKey(client.ip),
        user_agent: client.userAgent.slice(0, 300),
        device_name: (client.deviceName ?? '').slice(0, 100),
        parent_session_id: client.parentSessionId ?? null,
        created_at: now,
        last_used_at: now,
        expires_at: now + ctx.config.refreshTokenTtlSeconds * 1000,
      })
      .execute();
    return newRefreshToken(ctx, trx, userId, sessionId);
  });
  return tokenResponse(ctx, userId, sessionId, refresh);
}

/**
 * How long after its exchange a refresh token may be used once more: a client whose answer was lost (a tab reloaded
 * or a network dropped mid-refresh) still holds it. Such a use is answered with the very token that replaced it, as
 * long as that one is unused; any other second use is a replay.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;
/** How long a second use waits for a first use of the same token, still in flight, to write its successor. */
const SUCCESSOR_WAIT_MS = 1000;

/**
 * The token that replaces `refresh`: derived from it under the server's key, so a second use within the grace window
 * gets the same successor again instead of a new one that would take the session over from whoever holds the first.
 */
function successorSecret(ctx: AppContext, refresh: string): string {
  return createHmac('sha256', ctx.secrets.tokenKey).update(`refresh-successor:${refresh}`).digest('base64url');
}

/**
 * Exchanges a refresh token for new tokens of the same session; null when it is unknown, expired, or its session is
 * over. A token used before ends its session and what was born of it, but for the grace window above.
 */
export async function rotateRefreshToken(ctx: AppContext, refresh: string): Promise<TokenResponse | null> {
  const now = ctx.clock.now();
  const row = await ctx.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', sha256Hex(refresh)).executeTakeFirst();
  if (!row) return null;
  // Marking it used is the claim: of two uses at once, one wins and the other is a second use.
  const claimed = row.used_at === null
    ? await ctx.db.updateTable('refresh_tokens').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst()
    : null;
  const first = !!claimed && Number(claimed.numUpdatedRows) === 1;
  if (row.expires_at <= now) return null;
  if (!first && !(await successorUnused(ctx, row.id, now))) {
    await endSessionAndOffspring(ctx.db, row.user_id, row.session_id);
    return null;
  }
  const next = successorSecret(ctx, refresh);
  const live = await ctx.db.transaction().execute(async (trx) => {
    const touched = await trx
      .updateTable('sessions')
      .set({ last_used_at: now, expires_at: now + ctx.config.refreshTokenTtlSeconds * 1000 })
      .where('id', '=', row.session_id)
      .where('expires_at', '>', now)
      .where((eb) => eb.exists(eb.selectFrom('users').select('id').where('users.id', '=', row.user_id).where('users.disabled_at', 'is', null).where('users.deleted_at', 'is', null)))
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) !== 1) return false;
    if (first) {
      const successor = await insertRefreshToken(ctx, trx, row.user_id, row.session_id, next);
      await trx.updateTable('refresh_tokens').set({ replaced_by: successor.id }).where('id', '=', row.id).execute();
    }
    return true;
  });
  return live ? tokenResponse(ctx, row.user_id, row.session_id, next) : null;
}

/**
 * A second use within the grace window is answered again while the token that replaced this one is unused. False for
 * a replay: too late, or the successor was used already (or never came: its first use failed).
 */
async function successorUnused(ctx: AppContext, id: string, now: number): Promise<boolean> {
  for (let waited = 0; ; waited += 50) {
    const row = await ctx.db.selectFrom('refresh_tokens').select(['used_at', 'replaced_by']).where('id', '=', id).executeTakeFirst();
    if (!row || row.used_at === null || now - row.used_at > REFRESH_REUSE_GRACE_MS) return false;
    if (row.replaced_by) {
      const successor = await ctx.db.selectFrom('refresh_tokens').select('used_at').where('id', '=', row.replaced_by).executeTakeFirst();
      return !!successor && successor.used_at === null;
    }
    // The first use is still writing its successor (two tabs at once).
    if (waited >= SUCCESSOR_WAIT_MS) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Ends one session: its refresh tokens go with it (cascade) and its access tokens stop working. */
export async function endSession(db: Db, userId: string, sessionId: string): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('session_id', '=', sessionId).where('user_id', '=', userId).execute();
  await db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).execute();
}

/** Ends the session a refresh token belongs to (sign-out); unknown tokens change nothing. */
export async function revokeRefreshToken(ctx: AppContext, refresh: string): Promise<void> {
  const row = await ctx.db.selectFrom('refresh_tokens').select(['user_id', 'session_id']).where('token_hash', '=', sha256Hex(refresh)).executeTakeFirst();
  if (row) await endSession(ctx.db, row.user_id, row.session_id);
}

/**
 * Ends every session of an account (but `keepSessionId`, when given), its app passwords, and every download link
 * signed for it. Run inside the transaction of what caused it (a password change, a disabled account) or alone
 * (sign-out everywhere). Links are signed per account, not per session, so a kept session's links end too; its next
 * listing signs new ones.
 */
export async function endAllSessions(db: Db, userId: string, keepSessionId?: string): Promise<void> {
  let tokens = db.deleteFrom('refresh_tokens').where('user_id', '=', userId);
  let sessions = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId) {
    tokens = tokens.where('session_id', '!=', keepSessionId);
    sessions = sessions.where('id', '!=', keepSessionId);
  }
  await tokens.execute();
  await sessions.execute();
  // App passwords (WebDAV) are ways in like sessions: they end together.
  await db.deleteFrom('app_passwords').where('user_id', '=', userId).execute();
  await db.updateTable('users').set((eb) => ({ session_epoch: eb(eb.ref('session_epoch'), '+', 1) })).where('id', '=', userId).execute();
}

/** Whether the account has a live session begun from this client's address (per /64 for IPv6). */
export async function knownAddress(db: Db, userId: string, ip: string): Promise<boolean> {
  const row = await db.selectFrom('sessions').select('id').where('user_id', '=', userId).where('ip', '=', clientKey(ip)).limit(1).executeTakeFirst();
  return !!row;
}

/** Drops expired sessions and used refresh tokens older than a refresh token's life; run by the hourly purge. */
export async function purgeSessions(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('refresh_tokens').where('used_at', '<', now - ctx.config.refreshTokenTtlSeconds * 1000).execute();
  await ctx.db.deleteFrom('refresh_tokens').where('expires_at', '<', now).where('used_at', 'is', null).execute();
  const expired = ctx.db.selectFrom('sessions').select('id').where('expires_at', '<', now);
  await ctx.db.deleteFrom('refresh_tokens').where('session_id', 'in', expired).execute();
  const r = await ctx.db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
