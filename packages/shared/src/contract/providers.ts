/**
 * Sign-in providers (OpenID Connect): the providers the operator configured, the authorization code flow that proves
 * a person's identity at one of them, signing in with that identity, and connecting identities to an account.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TokenResponseSchema } from '../entities.js';
import { route } from './define.js';
import { Empty, TimeString } from './schema-kit.js';

const tag = 'Sign-in providers';

const ProviderId = Type.String({ minLength: 1, maxLength: 40, pattern: '^[a-z0-9_-]+$', description: "The provider's id in the server's configuration, e.g. \"google\"." });
const RedirectUri = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'Where the provider sends the browser back to, with `code` and `state`: an address registered with the provider (the web app uses `<origin>/drive/login/callback`).',
});
const State = Type.String({
  minLength: 22,
  maxLength: 200,
  pattern: '^[A-Za-z0-9._~-]+$',
  description: 'A random value the client made for this one sign-in (at least 128 bits) and keeps until the browser comes back: the callback goes on only when the returned state equals it.',
});
const ProviderToken = Type.String({ minLength: 1, maxLength: 4000, description: 'From POST /v1/auth/provider/token: works once, for 10 minutes.' });

export const SignInProviderSchema = Type.Object({
  id: Type.String({ description: 'Send it as `provider_id`.' }),
  name: Type.String({ description: 'What to call it on a button: "Continue with <name>".' }),
});
export type SignInProvider = Static<typeof SignInProviderSchema>;

export const LinkedProviderSchema = Type.Object({
  provider_id: Type.String(),
  name: Type.String({ description: "The provider's name; the id when the operator no longer offers it." }),
  email: Type.String({ description: "The e-mail address the provider named when it was connected; '' when none." }),
  created_at: TimeString('When it was connected.'),
});
export type LinkedProvider = Static<typeof LinkedProviderSchema>;

export const providersRoutes = {
  listSignInProviders: route({
    method: 'GET',
    path: '/v1/auth/providers',
    tag,
    summary: 'Providers to sign in with',
    description: 'The OpenID Connect providers this server lets people sign in with, in the order the operator listed them (none unless the operator configured some), and whether a first sign-in may create an account.',
    auth: 'public',
    response: Type.Object({
      providers: Type.Array(SignInProviderSchema),
      sign_up: Type.Boolean({ description: 'Whether a first sign-in with a verified e-mail no account has creates an account (registration is open).' }),
    }),
    errors: {},
  }),
  providerAuthUri: route({
    method: 'POST',
    path: '/v1/auth/provider/uri',
    tag,
    summary: 'Start a sign-in at a provider',
    description:
      "Answers the provider's address to send the browser to: the authorization code flow with PKCE (S256) and a nonce, which the server keeps for 10 minutes under the client's `state`. The provider sends the browser back to `provider_redirect_uri` with `code` and `state`; check that the state is the one sent, then trade the code at POST /v1/auth/provider/token. Used both to sign in and to connect a provider to the signed-in account.",
    auth: 'public',
    body: Type.Object({ provider_id: ProviderId, provider_redirect_uri: RedirectUri, state: State }),
    response: Type.Object({ uri: Type.String({ description: "The provider's authorization address with this sign-in's parameters." }) }),
    errors: {
      invalid_argument: 'No provider of that id is configured, the redirect address is not an http(s) address, or the state was used before.',
      too_many_requests: 'Too many sign-ins started from this network: `details[0].retry_after_seconds` says when to try again.',
      unavailable: "The provider's configuration (/.well-known/openid-configuration) could not be read: try again later.",
    },
    example: { provider_id: 'google', provider_redirect_uri: 'https://haul.example/drive/login/callback', state: 'k3JwQx2dP9vN8sT1aYb7Lm' },
  }),
  providerToken: route({
    method: 'POST',
    path: '/v1/auth/provider/token',
    tag,
    summary: 'Trade the provider code for a provider token',
    description:
      "Exchanges the `code` the provider sent back (with the PKCE verifier kept for `state`) at the provider's token endpoint, validates the ID token (signature, issuer, audience, expiry, nonce) and answers a `provider_token`: the server's statement of who the provider says this is. It signs in (POST /v1/auth/signin/with/provider) or connects the provider (POST /v1/user/provider/bind), once, within 10 minutes. Each state works once.",
    auth: 'public',
    body: Type.Object({
      provider_code: Type.String({ minLength: 1, maxLength: 4000, description: 'The `code` the provider sent back.' }),
      provider_id: ProviderId,
      provider_redirect_uri: RedirectUri,
      state: Type.String({ minLength: 1, maxLength: 200, description: 'The state of POST /v1/auth/provider/uri, as the provider sent it back.' }),
    }),
    response: Type.Object({
      provider_token: Type.String(),
      expires_in: Type.Integer({ description: 'Seconds the provider token lasts.' }),
    }),
    errors: {
      invalid_grant: 'The state is unknown, expired or used, names another provider or redirect address, the provider refused the code, or its ID token did not validate.',
      unavailable: 'The provider could not be reached: try again later.',
    },
    example: { provider_code: '…', provider_id: 'google', provider_redirect_uri: 'https://haul.example/drive/login/callback', state: 'k3JwQx2dP9vN8sT1aYb7Lm' },
  }),
  signInWithProvider: route({
    method: 'POST',
    path: '/v1/auth/signin/with/provider',
    tag,
    summary: 'Sign in with a provider',
    description:
      "Signs in the account connected to the provider identity of `provider_token`. With none connected, a first sign-in creates an account when registration is open and the provider vouches for the e-mail address (`email_verified`) and no account has it. An account that already has the address is never connected silently: sign in to it with its password and connect the provider from the account page.",
    auth: 'public',
    body: Type.Object({
      provider_token: ProviderToken,
      verification_code: Type.Optional(Type.String({ maxLength: 40, description: 'Two-factor sign-in: the code the authenticator app shows now, or an unused recovery code.' })),
      invitation_code: Type.Optional(Type.String({ maxLength: 64, description: 'The invite code of the link this person came from; used only when this sign-in makes a new account. Unknown codes are ignored.' })),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_grant: 'The provider token is invalid, expired, used, or its provider is no longer configured; or the two-factor code is wrong or was used already.',
      two_factor_required: 'The connected account has two-factor sign-in: send its code in `verification_code` with the same provider token, which is still unspent.',
      too_many_requests: 'Too many wrong two-factor codes: `details[0].retry_after_seconds` says when to try again.',
      failed_precondition:
        'No account is connected to this identity, and none can be made for it: an account already has its e-mail address (sign in with the password, then connect the provider), or the provider named no verified e-mail address.',
      permission_denied: 'The connected account is disabled, or no account is connected and registration is closed.',
    },
    example: { provider_token: '…' },
  }),
  listLinkedProviders: route({
    method: 'GET',
    path: '/v1/user/provider',
    tag,
    summary: 'Connected providers',
    description: 'The providers connected to the signed-in account, and whether it has a password (an account made by a provider sign-in has none until it sets one through a forgotten-password code).',
    auth: 'user',
    response: Type.Object({
      providers: Type.Array(LinkedProviderSchema),
      has_password: Type.Boolean(),
    }),
    errors: {},
  }),
  bindProvider: route({
    method: 'POST',
    path: '/v1/user/provider/bind',
    tag,
    summary: 'Connect a provider',
    description:
      'Connects the provider identity of `provider_token` to the signed-in account, so it signs in to it. An account with a password confirms it is the owner first: a `sudo_token` of this session (POST /v1/user/sudo). One identity per provider: `force_replace` replaces the one connected before. An identity connected to another account stays there (disconnect it there first).',
    auth: 'user',
    body: Type.Object({
      provider_token: ProviderToken,
      force_replace: Type.Optional(Type.Boolean({ description: 'Replace the identity of the same provider connected before; without it that answers already_exists.' })),
      sudo_token: Type.Optional(Type.String({ maxLength: 2000, description: 'From POST /v1/user/sudo, in this session: needed when the account has a password.' })),
    }),
    response: LinkedProviderSchema,
    errors: {
      invalid_grant: 'The provider token is invalid, expired, used or of a provider no longer configured; or the account has a password and the sudo token is missing, expired or of another session.',
      already_exists: 'The identity is connected to another account, or another identity of this provider is connected to this one and force_replace was not set.',
    },
    example: { provider_token: '…', force_replace: true, sudo_token: '…' },
  }),
  unbindProvider: route({
    method: 'DELETE',
    path: '/v1/user/provider',
    tag,
    summary: 'Disconnect a provider',
    description: 'Disconnects a provider from the signed-in account. The last way into an account without a password cannot go.',
    auth: 'user',
    body: Type.Object({ provider_id: ProviderId }),
    response: Empty,
    errors: {
      not_found: 'No identity of that provider is connected to the account.',
      failed_precondition: 'It is the only way into the account: set a password (through a forgotten-password code) or connect another provider first.',
    },
    example: { provider_id: 'google' },
  }),
};
