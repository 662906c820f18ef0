/**
 * Provider tokens: the server's own statement, for 10 minutes, of the identity a provider vouched for once its ID
 * token validated. A JWT of its own audience (never taken as an access or sudo token, nor they as one) naming the
 * sign-in state it came from, which it spends: each works once.
 */
import { SignJWT, jwtVerify } from 'jose';
import type { AppContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { issuedInFuture } from '../http/access-tokens.js';
import type { OidcClients, VerifiedIdentity } from './oidc-clients.js';

export const PROVIDER_TOKEN_TTL_SECONDS = 600;
const ISSUER = 'haul';
const AUDIENCE = 'haul-provider';

const badToken = () => new HttpError(400, 'invalid_grant', 'The sign-in with the provider has expired or was used already. Please sign in with it again.');

/** A verified provider token: the identity, and the sign-in state it spends. */
export interface ProviderGrant extends VerifiedIdentity {
  stateId: string;
}

/** Signs the identity an exchange produced. */
export async function signProviderToken(ctx: AppContext, identity: VerifiedIdentity, stateId: string): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000);
  return new SignJWT({ pid: identity.providerId, piss: identity.issuer, psub: identity.subject, email: identity.email, ev: identity.emailVerified, name: identity.name, st: stateId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + PROVIDER_TOKEN_TTL_SECONDS)
    .sign(ctx.secrets.tokenKey);
}

const normalIssuer = (s: string) => s.replace(/\/+$/, '');

/**
 * The identity of a valid provider token whose provider is still configured with the same issuer (an operator who
 * points a provider id at another issuer must not let its subjects open the old one's accounts); throws invalid_grant.
 */
export async function verifyProviderToken(ctx: AppContext, clients: OidcClients, token: string): Promise<ProviderGrant> {
  let p: Record<string, unknown>;
  try {
    ({ payload: p } = await jwtVerify(token, ctx.secrets.tokenKey, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['exp', 'iat'],
      currentDate: new Date(ctx.clock.now()),
    }));
  } catch {
    throw badToken();
  }
  if (issuedInFuture(p.iat, ctx.clock.now())) throw badToken();
  const str = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : '');
  const provider = clients.find(str('pid'));
  if (!provider || !str('psub') || !str('st') || normalIssuer(provider.issuer) !== normalIssuer(str('piss'))) throw badToken();
  return { providerId: provider.id, issuer: str('piss'), subject: str('psub'), email: str('email'), emailVerified: p.ev === true, name: str('name'), stateId: str('st') };
}

/** Spends a provider token (its state row): of two uses, one wins; a spent one is refused. */
export async function spendProviderToken(ctx: AppContext, grant: ProviderGrant): Promise<void> {
  const r = await ctx.db.updateTable('provider_states').set({ spent_at: ctx.clock.now() }).where('id', '=', grant.stateId).where('spent_at', 'is', null).where('exchanged_at', 'is not', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw badToken();
}
