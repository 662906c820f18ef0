/**
 * Token introspection (RFC 7662) and revocation (RFC 7009) for app tokens.
 *
 * Introspection needs the asker to prove who it is (RFC 7662 §2.1): a confidential app with its secret, or anyone with
 * a live access token (a public app has no secret, so it asks with its own access token). What it may learn is bounded
 * by who it is: an app, only about tokens issued to it; a person's session, only about tokens of the same account.
 * Everything else reads `active: false`, exactly as a dead or unknown token, so the endpoint is no oracle for tokens.
 */
import { decodeJwt } from 'jose';
import type { AppContext } from '../context.js';
import { HttpError, unauthenticated } from '../http/errors.js';
import { sha256Hex } from '../lib/ids.js';
import { endSession, revokeRefreshToken } from '../accounts/tokens.js';
import { verifyAccessToken } from '../http/access-tokens.js';
import { authenticateClient, namesClient, type ClientCredentials } from './oauth-clients.js';

interface TokenFacts {
  userId: string;
  sessionId: string;
  clientId: string | null;
  scope: string | null;
  kind: 'Bearer' | 'refresh_token';
  exp: number;
  iat: number;
}

/** Whose the token is, when it is live (its session too); null when it is unknown, dead or not ours. */
async function readToken(ctx: AppContext, token: string): Promise<TokenFacts | null> {
  if (token.split('.').length === 3) {
    try {
      const c = await verifyAccessToken(ctx, token);
      const claims = decodeJwt(token);
      return { userId: c.userId, sessionId: c.sessionId, clientId: c.clientId, scope: c.scope, kind: 'Bearer', exp: claims.exp!, iat: claims.iat! };
    } catch (err) {
      if (err instanceof HttpError) return null;
      throw err;
    }
  }
  const now = ctx.clock.now();
  const row = await ctx.db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['refresh_tokens.user_id', 'refresh_tokens.session_id', 'refresh_tokens.expires_at', 'refresh_tokens.created_at', 'sessions.client_id', 'sessions.scope'])
    .where('refresh_tokens.token_hash', '=', sha256Hex(token))
    .where('refresh_tokens.used_at', 'is', null)
    .where('refresh_tokens.expires_at', '>', now)
    .where('sessions.expires_at', '>', now)
    .where('users.disabled_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || !row.session_id) return null;
  return {
    userId: row.user_id,
    sessionId: row.session_id,
    clientId: row.client_id,
    scope: row.scope,
    kind: 'refresh_token',
    exp: Math.floor(row.expires_at / 1000),
    iat: Math.floor(row.created_at / 1000),
  };
}

/** Who asks: an authenticated app, or the holder of a live access token. */
type Asker = { clientId: string } | { userId: string; clientId: string | null };

async function asker(ctx: AppContext, creds: ClientCredentials): Promise<Asker> {
  if (namesClient(creds)) {
    const client = await authenticateClient(ctx.db, creds);
    if (!client.confidential) throw new HttpError(401, 'invalid_client', 'A public app has no secret: introspect with its access token (Authorization: Bearer).');
    return { clientId: client.id };
  }
  const bearer = /^Bearer\s+(.+)$/i.exec(creds.authorization ?? '');
  if (!bearer) throw unauthenticated('Send an app\'s credentials or an access token.');
  const c = await verifyAccessToken(ctx, bearer[1]!.trim());
  return { userId: c.userId, clientId: c.clientId };
}

const mayLearn = (a: Asker, t: TokenFacts): boolean =>
  'userId' in a ? a.userId === t.userId && (a.clientId === null || a.clientId === t.clientId) : a.clientId === t.clientId;

/** RFC 7662 §2.2: `{active: false}` and nothing else unless the token is live and the asker may know about it. */
export async function introspect(ctx: AppContext, token: string, creds: ClientCredentials) {
  const who = await asker(ctx, creds);
  const facts = await readToken(ctx, token);
  if (!facts || !mayLearn(who, facts)) return { active: false };
  const user = await ctx.db.selectFrom('users').select('email').where('id', '=', facts.userId).executeTakeFirst();
  return {
    active: true,
    ...(facts.scope ? { scope: facts.scope } : {}),
    ...(facts.clientId ? { client_id: facts.clientId } : {}),
    ...(user ? { username: user.email } : {}),
    token_type: facts.kind,
    exp: facts.exp,
    iat: facts.iat,
    sub: facts.userId,
    iss: 'haul',
  };
}

/**
 * Revocation (RFC 7009): a refresh token ends its session, as sign-out always did; an app's access token ends the app's
 * session. An app that names itself must authenticate, and a token issued to another app is left alone (answered
 * like an unknown one, §2.2).
 */
export async function revokeToken(ctx: AppContext, token: string, creds: ClientCredentials): Promise<void> {
  if (!namesClient(creds)) {
    if (token.split('.').length !== 3) return revokeRefreshToken(ctx, token);
    const facts = await readToken(ctx, token);
    if (facts?.clientId) await endSession(ctx.db, facts.userId, facts.sessionId);
    return;
  }
  const client = await authenticateClient(ctx.db, creds);
  const facts = await readToken(ctx, token);
  if (facts && facts.clientId === client.id) await endSession(ctx.db, facts.userId, facts.sessionId);
}
