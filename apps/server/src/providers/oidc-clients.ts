/**
 * The relying party's side of OpenID Connect, through openid-client (which validates what providers answer: the ID
 * token's issuer, audience, expiry, nonce, and its signature against the provider's published keys; the state; PKCE).
 *
 * Provider addresses come from the operator's configuration, not from users, so these requests do not go through the
 * offline network guard: a household's own Keycloak on the LAN or on the same machine must work. They do keep the
 * network silence limit. Plain http is allowed only when the operator wrote an http issuer.
 *
 * openid-client is loaded at the first sign-in through a provider, so a server with none configured never loads it.
 */
import type * as oidc from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../http/errors.js';
import type { OidcProviderConfig } from './provider-config.js';

/** Who the provider says the person is, once its ID token validated. */
export interface VerifiedIdentity {
  providerId: string;
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

/** A discovered configuration is reused for this long; the provider's keys are refetched by openid-client on a new key id. */
const DISCOVERY_TTL_MS = 3600_000;

const unreachable = () => new HttpError(503, 'unavailable', 'The sign-in provider cannot be reached right now. Please try again later.');
const refused = () => new HttpError(400, 'invalid_grant', 'The sign-in at the provider did not complete. Please try again.');

/** Whether a failure is the network (connection refused, timeout, a 5xx) rather than a refusal or a bad answer. */
function isNetworkFailure(err: unknown): boolean {
  const e = err as { name?: string; message?: string; cause?: { code?: string; name?: string; status?: number } } | null;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.cause?.name === 'TimeoutError') return true;
  if (e?.message === 'fetch failed' || /ECONN|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/.test(String(e?.cause?.code ?? ''))) return true;
  return typeof e?.cause?.status === 'number' && e.cause.status >= 500;
}

let oidcLoaded: Promise<typeof oidc> | null = null;

/** openid-client, loaded at its first use. */
export function openidClient(): Promise<typeof oidc> {
  oidcLoaded ??= import('openid-client');
  return oidcLoaded;
}

/** The configured providers, each discovered on first use and cached. */
export class OidcClients {
  private readonly discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  constructor(
    readonly providers: readonly OidcProviderConfig[],
    private readonly timeoutSeconds: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  find(id: string): OidcProviderConfig | undefined {
    return this.providers.find((p) => p.id === id);
  }

  private configuration(p: OidcProviderConfig): Promise<oidc.Configuration> {
    const hit = this.discovered.get(p.id);
    if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
    const config = openidClient()
      .then((oidc) =>
        oidc.discovery(new URL(p.issuer), p.clientId, undefined, p.clientSecret ? oidc.ClientSecretBasic(p.clientSecret) : oidc.None(), {
          // Signatures are checked even though the ID token comes straight from the token endpoint: over plain http (a
          // LAN provider) there is no TLS to vouch for it, and a checked signature costs one cached key fetch.
          execute: [oidc.enableNonRepudiationChecks, ...(p.issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : [])],
          timeout: this.timeoutSeconds,
        }),
      )
      .catch((err: unknown) => {
        this.discovered.delete(p.id);
        // The issuer and the library's words only: the client secret is never part of either.
        this.log.warn({ provider: p.id, issuer: p.issuer, err: (err as Error).message }, 'sign-in provider discovery failed');
        throw unreachable();
      });
    this.discovered.set(p.id, { at: Date.now(), config });
    return config;
  }

  /** The provider's authorization address for one sign-in (authorization code, PKCE S256, nonce). */
  async authorizationUrl(p: OidcProviderConfig, input: { redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<string> {
    const config = await this.configuration(p);
    const oidc = await openidClient();
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: input.redirectUri,
        scope: p.scopes.join(' '),
        response_type: 'code',
        state: input.state,
        nonce: input.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(input.codeVerifier),
        code_challenge_method: 'S256',
      })
      .toString();
  }

  /**
   * Trades a code for tokens and returns the identity the validated ID token names, the e-mail from the UserInfo
   * endpoint when the ID token carries none (as providers do that keep ID tokens small).
   */
  async exchange(p: OidcProviderConfig, input: { code: string; state: string; redirectUri: string; nonce: string; codeVerifier: string }): Promise<VerifiedIdentity> {
    const config = await this.configuration(p);
    const oidc = await openidClient();
    const callback = new URL(input.redirectUri);
    callback.search = '';
    callback.hash = '';
    callback.searchParams.set('code', input.code);
    callback.searchParams.set('state', input.state);
    // RFC 9207: the server bound this state to this provider, so the issuer of the answer is the one asked (mix-up).
    const meta = config.serverMetadata();
    if (meta.authorization_response_iss_parameter_supported) callback.searchParams.set('iss', meta.issuer);
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: input.codeVerifier,
        expectedState: input.state,
        expectedNonce: input.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      let email = typeof claims.email === 'string' ? claims.email : '';
      let emailVerified = claims.email_verified === true;
      let name = typeof claims.name === 'string' ? claims.name : '';
      if (!email && meta.userinfo_endpoint && tokens.access_token) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = typeof info.email === 'string' ? info.email : '';
        emailVerified = info.email_verified === true;
        name ||= typeof info.name === 'string' ? info.name : '';
      }
      return { providerId: p.id, issuer: claims.iss, subject: claims.sub, email: email.trim().toLowerCase(), emailVerified, name: name.trim() };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      this.log.warn({ provider: p.id, err: (err as Error).message, code: (err as { code?: string }).code }, 'sign-in provider code exchange failed');
      if (isNetworkFailure(err)) throw unreachable();
      throw refused();
    }
  }
}
