/**
 * The consent screen's side of the authorization code flow (RFC 6749 §4.1.1–4.1.2, RFC 7636): checking a request,
 * remembering a consent, and issuing the one-minute, one-use code. A request naming no registered app, or a redirect
 * URI the app did not register character for character, is never answered by a redirect (§4.1.2.1): the screen shows
 * an error. Other faults go back to the app's redirect URI with the standard error name and the state.
 */
import { OAUTH_CODE_TTL_SECONDS, type OAuthScope } from '@haul/shared';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { checkSudoForCredential } from '../accounts/sudo.js';
import type { Caller } from '../http/access-tokens.js';
import { newId, newSecret, sha256Hex } from '../lib/ids.js';
import { findClient, type OAuthClient } from './oauth-clients.js';
import { formatScope, parseScope, scopeCovers, scopeItems } from './scope.js';

/** The query (or body) an app sends the person to the consent screen with. */
export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  response_type?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export interface CheckedRequest {
  client: OAuthClient;
  redirectUri: string;
  scope: OAuthScope[];
  state: string;
  challenge: string;
}

/** Codes stay this long past their end, so a late second use is still recognised as one. */
const KEEP_USED_CODES_MS = 10 * 60_000;

/** `uri` with `params` added to its query (whatever query it already has stays). */
export function withQuery(uri: string, params: Record<string, string>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) u.searchParams.append(k, v);
  return u.toString();
}

const refuse = (reason: 'INVALID_CLIENT' | 'INVALID_REDIRECT_URI', message: string) => new HttpError(400, 'invalid_argument', message, [{ reason }]);

/** A fault the app should hear about at its redirect URI (RFC 6749 §4.1.2.1). */
function sendBack(p: AuthorizeParams, error: string, description: string): HttpError {
  const redirect = withQuery(p.redirect_uri, { error, error_description: description, ...(p.state ? { state: p.state } : {}) });
  return new HttpError(400, 'invalid_argument', description, [{ reason: 'REDIRECT', error, redirect }]);
}

/** Checks an authorization request; throws the error the consent screen shows or follows. */
export async function checkAuthorizeRequest(ctx: AppContext, p: AuthorizeParams): Promise<CheckedRequest> {
  const client = await findClient(ctx.db, p.client_id);
  if (!client) throw refuse('INVALID_CLIENT', 'No app with this client_id is registered on this server.');
  if (!client.redirectUris.includes(p.redirect_uri)) throw refuse('INVALID_REDIRECT_URI', `The redirect URI is not one that ${client.name} registered.`);
  if (p.response_type !== 'code') throw sendBack(p, 'unsupported_response_type', 'response_type must be "code".');
  if (!p.state) throw sendBack(p, 'invalid_request', 'state is required.');
  const scope = parseScope(p.scope);
  if (!scope) throw sendBack(p, 'invalid_scope', 'scope must be made of "user", "pan" and "offline".');
  if (p.code_challenge_method !== 'S256') throw sendBack(p, 'invalid_request', 'PKCE is required, with code_challenge_method "S256" ("plain" is not accepted).');
  if (!/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge ?? '')) throw sendBack(p, 'invalid_request', 'code_challenge must be the BASE64URL of a SHA-256 (43 characters).');
  return { client, redirectUri: p.redirect_uri, scope, state: p.state, challenge: p.code_challenge! };
}

/** What the consent screen shows. */
export async function authorizeInfo(ctx: AppContext, p: AuthorizeParams) {
  const r = await checkAuthorizeRequest(ctx, p);
  const scope = formatScope(r.scope);
  return { client_id: r.client.id, client_name: r.client.name, scope, scopes: scopeItems(scope), redirect_uri: r.redirectUri, state: r.state };
}

/**
 * Whether this session already allowed this app all it asks for, so the screen may go straight through. A consent
 * given in another session asks again (with the password): allowing an app is a lasting way in.
 */
export async function detectConsent(ctx: AppContext, caller: Pick<Caller, 'userId' | 'sessionId'>, p: AuthorizeParams): Promise<{ consented: boolean }> {
  const r = await checkAuthorizeRequest(ctx, p);
  return { consented: await consentedHere(ctx, caller, r) };
}

async function consentedHere(ctx: AppContext, caller: Pick<Caller, 'userId' | 'sessionId'>, r: CheckedRequest): Promise<boolean> {
  const consent = await ctx.db.selectFrom('oauth_consents').select(['scope', 'session_id']).where('user_id', '=', caller.userId).where('client_id', '=', r.client.id).executeTakeFirst();
  return !!consent && consent.session_id === caller.sessionId && scopeCovers(consent.scope, r.scope);
}

/**
 * The person allows the app: the consent is remembered (widened, never narrowed) and a code is issued. Both are born of
 * the caller's session; a sudo token is needed unless this session allowed it all before.
 */
export async function grantCode(ctx: AppContext, caller: Caller, p: AuthorizeParams & { sudo_token?: string }): Promise<{ code: string; state: string; redirect_url: string }> {
  const r = await checkAuthorizeRequest(ctx, p);
  if (!(await consentedHere(ctx, caller, r))) await checkSudoForCredential(ctx, caller, p.sudo_token);
  const userId = caller.userId;
  const now = ctx.clock.now();
  const code = newSecret();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('oauth_consents').select('scope').where('user_id', '=', userId).where('client_id', '=', r.client.id).executeTakeFirst();
    const scope = formatScope([...r.scope, ...(before?.scope.split(' ') ?? [])]);
    await trx
      .insertInto('oauth_consents')
      .values({ user_id: userId, client_id: r.client.id, scope, created_at: now, updated_at: now, session_id: caller.sessionId })
      .onConflict((oc) => oc.columns(['user_id', 'client_id']).doUpdateSet({ scope, updated_at: now, session_id: caller.sessionId }))
      .execute();
    await trx
      .insertInto('oauth_codes')
      .values({
        id: newId(),
        code_hash: sha256Hex(code),
        client_id: r.client.id,
        user_id: userId,
        redirect_uri: r.redirectUri,
        scope: formatScope(r.scope),
        code_challenge: r.challenge,
        created_at: now,
        expires_at: now + OAUTH_CODE_TTL_SECONDS * 1000,
        used_at: null,
        session_id: null,
        parent_session_id: caller.sessionId,
      })
      .execute();
    // Codes are few and short-lived: old ones go here rather than in a job of their own.
    await trx.deleteFrom('oauth_codes').where('expires_at', '<', now - KEEP_USED_CODES_MS).execute();
  });
  return { code, state: r.state, redirect_url: withQuery(r.redirectUri, { code, state: r.state }) };
}
