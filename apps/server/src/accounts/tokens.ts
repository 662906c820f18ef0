/**
 * Sessions and their refresh tokens (access tokens themselves: http/access-tokens.ts). Refresh tokens are stored
 * hashed, rotated on each use inside their session; a second use of one is a replay (RFC 6819 §5.2.2.3) and ends the
 * whole session, the token already issued from it included, but within a short grace window that answers the same
 * successor again.
 */
import { createHmac } from 'node:crypto';
import type { TokenResponse } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';
import { signAccessToken } from '../http/access-tokens.js';
import type { ClientInfo } from '../http/client-info.js';
import { clientKey } from '../limits/attempt-limiter.js';
import { endSessionAndOffspring } from './session-offspring.js';


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
