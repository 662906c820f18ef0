/**
 * The app's side at the token endpoint: exchanging a code for the tokens of a session of its own (RFC 6749 §4.1.3,
 * RFC 7636 §4.6), and refreshing them. App sessions are ordinary sessions with a client and a scope, so expiry, refresh
 * rotation and replay detection, sign-out everywhere, a password change and account deletion end them like any other.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import type { TokenGrantResponseSchema } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { newId, sha256Hex } from '../lib/ids.js';
import { endSession, newRefreshToken } from '../accounts/tokens.js';
import type { ClientInfo } from '../http/client-info.js';
import { signAccessToken } from '../http/access-tokens.js';
import { authenticateClient, findClient, type ClientCredentials } from './oauth-clients.js';

export type TokenGrant = Static<typeof TokenGrantResponseSchema>;

/** What POST /v1/auth/token carries that matters here. */
export interface GrantRequest extends ClientCredentials {
  grant_type: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
}

const badGrant = (message: string) => new HttpError(400, 'invalid_grant', message);

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * Handles the token endpoint's app grants: answers tokens for "authorization_code"; for a refresh token of an app with
 * a secret, checks the app's credentials and answers null (the refresh itself is the ordinary one); null otherwise.
 */
export async function appTokenGrant(ctx: AppContext, body: GrantRequest, authorization: string | undefined, from: ClientInfo): Promise<TokenGrant | null> {
  const creds = { authorization, client_id: body.client_id, client_secret: body.client_secret };
  if (body.grant_type === 'authorization_code') return exchangeCode(ctx, body, creds, from);
  if (body.grant_type === 'refresh_token' && body.refresh_token) await checkRefreshClient(ctx, body.refresh_token, creds);
  return null;
}

/** An app's refresh token is spent only by that app, with its secret when it has one (RFC 6749 §6). */
async function checkRefreshClient(ctx: AppContext, refresh: string, creds: ClientCredentials): Promise<void> {
  const row = await ctx.db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select('sessions.client_id')
    .where('refresh_tokens.token_hash', '=', sha256Hex(refresh))
    .executeTakeFirst();
  if (!row?.client_id) return;
  const client = await findClient(ctx.db, row.client_id);
  if (!client) return;
  if (client.confidential || creds.client_id || creds.authorization) {
    const caller = await authenticateClient(ctx.db, creds);
    if (caller.id !== client.id) throw badGrant('The refresh token was issued to another app.');
  }
}

type Outcome = { ok: true; grant: TokenGrant } | { ok: false; message: string };

async function exchangeCode(ctx: AppContext, body: GrantRequest, creds: ClientCredentials, from: ClientInfo): Promise<TokenGrant> {
  if (!body.code || !body.redirect_uri || !body.code_verifier) throw badInput('authorization_code needs code, redirect_uri and code_verifier.');
  const client = await authenticateClient(ctx.db, creds);
  const now = ctx.clock.now();
  const code = body.code;
  const verifier = body.code_verifier;
  // One transaction: the claim, the checks and the session it issues commit together, so a second use (which waits
  // for the claim's lock) always finds the session to end.
  const outcome = await ctx.db.transaction().execute(async (trx): Promise<Outcome> => {
    const row = await trx.selectFrom('oauth_codes').selectAll().where('code_hash', '=', sha256Hex(code)).executeTakeFirst();
    if (!row) return { ok: false, message: 'The code is unknown.' };
    const claimed = await trx.updateTable('oauth_codes').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      // A code used twice (RFC 6749 §4.1.2): what was issued for it ends too.
      const used = await trx.selectFrom('oauth_codes').select('session_id').where('id', '=', row.id).executeTakeFirst();
      if (used?.session_id) await endSession(trx, row.user_id, used.session_id);
      return { ok: false, message: 'The code was used before; the tokens issued for it are revoked.' };
    }
    // Any use spends the code, so a stolen one tried with a wrong verifier is dead for its owner too.
    if (row.client_id !== client.id) return { ok: false, message: 'The code was issued to another app.' };
    if (row.expires_at <= now) return { ok: false, message: 'The code has expired.' };
    if (row.redirect_uri !== body.redirect_uri) return { ok: false, message: 'redirect_uri is not the one the code was asked with.' };
    if (!verifierMatches(verifier, row.code_challenge)) return { ok: false, message: 'code_verifier does not match the code_challenge.' };
    const live = await trx.selectFrom('users').select('id').where('id', '=', row.user_id).where('disabled_at', 'is', null).where('deleted_at', 'is', null).executeTakeFirst();
    if (!live) return { ok: false, message: 'The account is no longer available.' };

    const offline = row.scope.split(' ').includes('offline');
    const sessionId = newId();
    await trx
      .insertInto('sessions')
      .values({
        id: sessionId,
        user_id: row.user_id,
        // The app's server is not the person: its address must not count as one the person signs in from.
        ip: '',
        user_agent: from.userAgent.slice(0, 300),
        device_name: client.name.slice(0, 100),
        created_at: now,
        last_used_at: now,
        // Without offline the session lives as long as its one access token.
        expires_at: now + (offline ? ctx.config.refreshTokenTtlSeconds : ctx.config.accessTokenTtlSeconds) * 1000,
        client_id: client.id,
        scope: row.scope,
        parent_session_id: row.parent_session_id,
      })
      .execute();
    const refresh = offline ? await newRefreshToken(ctx, trx, row.user_id, sessionId) : undefined;
    await trx.updateTable('oauth_codes').set({ session_id: sessionId }).where('id', '=', row.id).execute();
    return {
      ok: true,
      grant: {
        token_type: 'Bearer',
        access_token: await signAccessToken(ctx, row.user_id, sessionId),
        ...(refresh ? { refresh_token: refresh } : {}),
        expires_in: ctx.config.accessTokenTtlSeconds,
        sub: row.user_id,
        scope: row.scope,
      },
    };
  });
  if (!outcome.ok) throw badGrant(outcome.message);
  return outcome.grant;
}
