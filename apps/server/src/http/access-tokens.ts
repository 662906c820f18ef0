/**
 * Access tokens: short-lived HS256 JWTs (jose, algorithm allow-list) naming their session, which is checked on every
 * call, so ending a session (sign-out, sign-out everywhere, a password change, a disabled account) ends its access
 * tokens at once. The foundation every authenticated route stands on; sessions and refresh tokens live in
 * accounts/tokens.ts.
 */
import { SignJWT, jwtVerify } from 'jose';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { namedStatement } from '../db/named-statements.js';
import { newId } from '../lib/ids.js';
import { unauthenticated } from './errors.js';

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

/** A system_kv row every request reads afresh, read with the token's session instead, and what to do with its text. */
export interface RowWithSession {
  key: string;
  apply(value: string | null): void;
}
const rowsWithSession = new WeakMap<Db, RowWithSession>();

/** From now on the session query of `db` reads `row` too (app.ts: the run-time settings, ops/run-time-settings.ts). */
export function readWithSession(db: Db, row: RowWithSession): void {
  rowsWithSession.set(db, row);
}

/**
 * The caller of a valid access token whose session is live, or throws unauthenticated. One query, the request's first:
 * the session and its account, and beside them the row given to `readWithSession` (the run-time settings, which every
 * request reads afresh so a change made by any process holds from the next request on). Named on PostgreSQL
 * (db/named-statements.ts): every authenticated call runs it, so it is parsed and planned once a connection.
 */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<Caller> {
  const { userId, sessionId } = await checkToken(ctx, token);
  const extra = rowsWithSession.get(ctx.db);
  const query = ctx.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.session_epoch', 'sessions.client_id', 'sessions.scope'])
    .select((eb) => (extra ? eb.selectFrom('system_kv').select('value').where('key', '=', extra.key) : eb.val(null)).as('extra'))
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.expires_at', '>', ctx.clock.now())
    .where('users.disabled_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .compile();
  const live = (await ctx.db.executeQuery(namedStatement(query))).rows[0];
  if (!live) throw unauthenticated('You were signed out. Please sign in again.');
  extra?.apply((live.extra as string | null) ?? null);
  return { userId, sessionId, epoch: live.session_epoch, clientId: live.client_id, scope: live.scope };
}
