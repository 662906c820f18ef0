/**
 * The authorization code flow at a provider: start (a state row with the PKCE verifier and nonce, the provider's
 * address to go to) and finish (the code traded once per state, the ID token validated, a provider token answered).
 */
import type { AppContext } from '../context.js';
import { HttpError, badInput } from '../http/errors.js';
import { sha256Hex } from '../lib/ids.js';
import { clientKey, takeAttempt, tooManyAttempts, type AttemptPolicy } from '../limits/attempt-limiter.js';
import { openidClient, type OidcClients } from './oidc-clients.js';
import { PROVIDER_TOKEN_TTL_SECONDS, signProviderToken } from './provider-token.js';

/** How long a person may take at the provider (its login form, consent) before coming back. */
const STATE_TTL_MS = 10 * 60_000;
/** Rows are kept a while after they expire, then dropped by the next start. */
const STATE_KEEP_MS = 3600_000;
/** Starting sign-ins writes a row each: 60 an hour per network are free, then one a second. */
const STARTS_PER_ADDRESS: AttemptPolicy = { free: 60, baseDelayMs: 1000, maxDelayMs: 60_000, forgetMs: 3600_000 };

const badState = () => new HttpError(400, 'invalid_grant', 'This sign-in with the provider is unknown, has expired or was finished already. Please start again.');

function findProvider(clients: OidcClients, id: string) {
  const p = clients.find(id);
  if (!p) throw badInput(`No sign-in provider "${id}" is configured on this server.`);
  return p;
}

function checkRedirectUri(raw: string): string {
  if (!URL.canParse(raw)) throw badInput('provider_redirect_uri must be an absolute http(s) address.');
  const url = new URL(raw);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash) throw badInput('provider_redirect_uri must be an absolute http(s) address without a fragment.');
  return raw;
}

/** Begins a sign-in at a provider; the answer is the address to send the browser to. */
export async function startProviderSignIn(
  ctx: AppContext,
  clients: OidcClients,
  input: { provider_id: string; provider_redirect_uri: string; state: string },
  ip: string,
): Promise<{ uri: string }> {
  const provider = findProvider(clients, input.provider_id);
  const redirectUri = checkRedirectUri(input.provider_redirect_uri);
  const now = ctx.clock.now();
  const wait = await takeAttempt(ctx.db, now, [[`provider-start|${clientKey(ip)}`, STARTS_PER_ADDRESS]]);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many sign-ins started from your network.');
  await ctx.db.deleteFrom('provider_states').where('expires_at', '<', now - STATE_KEEP_MS).execute();
  const oidc = await openidClient();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  // The address first: a provider that cannot be reached leaves no row behind.
  const uri = await clients.authorizationUrl(provider, { redirectUri, state: input.state, nonce, codeVerifier });
  try {
    await ctx.db
      .insertInto('provider_states')
      .values({ id: sha256Hex(input.state), provider_id: provider.id, redirect_uri: redirectUri, code_verifier: codeVerifier, nonce, created_at: now, expires_at: now + STATE_TTL_MS, exchanged_at: null, spent_at: null })
      .execute();
  } catch (err) {
    if (await ctx.db.selectFrom('provider_states').select('id').where('id', '=', sha256Hex(input.state)).executeTakeFirst()) {
      throw badInput('This state was used before: make a new random state for each sign-in.');
    }
    throw err;
  }
  return { uri };
}

/** Trades the provider's code (once per state) for a provider token naming the validated identity. */
export async function finishProviderSignIn(
  ctx: AppContext,
  clients: OidcClients,
  input: { provider_code: string; provider_id: string; provider_redirect_uri: string; state: string },
): Promise<{ provider_token: string; expires_in: number }> {
  const id = sha256Hex(input.state);
  const now = ctx.clock.now();
  const row = await ctx.db.selectFrom('provider_states').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row || row.provider_id !== input.provider_id || row.redirect_uri !== input.provider_redirect_uri || row.expires_at <= now) throw badState();
  // Claimed before the provider is asked: a code replayed at the same time finds the state taken.
  const claimed = await ctx.db.updateTable('provider_states').set({ exchanged_at: now }).where('id', '=', id).where('exchanged_at', 'is', null).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw badState();
  const provider = findProvider(clients, row.provider_id);
  const identity = await clients.exchange(provider, { code: input.provider_code, state: input.state, redirectUri: row.redirect_uri, nonce: row.nonce, codeVerifier: row.code_verifier });
  return { provider_token: await signProviderToken(ctx, identity, id), expires_in: PROVIDER_TOKEN_TTL_SECONDS };
}
