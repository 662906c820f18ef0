/**
 * Third-party apps (OAuth 2.0 authorization code with PKCE, RFC 6749 and RFC 7636): the consent screen's calls, token
 * introspection (RFC 7662), and the apps a person has connected. The code is exchanged at POST /v1/auth/token
 * (grant_type "authorization_code") and app tokens are revoked at POST /v1/auth/revoke (RFC 7009).
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { Empty, StringEnum, TimeString } from './schema-kit.js';

const tag = 'Apps';

/** What an app may ask for: the seeds' scope is 'user+pan+offline'. */
export const OAUTH_SCOPES = ['user', 'pan', 'offline'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** Seconds an authorization code lasts. */
export const OAUTH_CODE_TTL_SECONDS = 60;

/**
 * The answer of POST /v1/auth/token for every grant: an app granted without `offline` gets no refresh token, and an
 * app's tokens say their scope.
 */
export const TokenGrantResponseSchema = Type.Object({
  token_type: Type.Literal('Bearer'),
  access_token: Type.String({ description: 'Send as `Authorization: Bearer <token>`.' }),
  refresh_token: Type.Optional(Type.String({ description: 'Works once at POST /v1/auth/token, for new tokens of the same session; POST /v1/auth/revoke with it signs out. An app gets one only with the `offline` scope.' })),
  expires_in: Type.Integer({ description: 'Seconds the access token lasts.' }),
  sub: Type.String({ description: "The user's id." }),
  scope: Type.Optional(Type.String({ description: "An app's scope, space-separated (e.g. \"user pan offline\")." })),
});

/** What POST /v1/auth/token takes for grant_type "authorization_code" (RFC 6749 §4.1.3, RFC 7636 §4.5). */
export const OAuthTokenFields = {
  code: Type.Optional(Type.String({ maxLength: 200, description: 'authorization_code: the code from the consent screen.' })),
  redirect_uri: Type.Optional(Type.String({ maxLength: 2000, description: 'authorization_code: the redirect_uri the code was asked for, character for character.' })),
  code_verifier: Type.Optional(Type.String({ maxLength: 128, description: 'authorization_code: the PKCE verifier whose S256 challenge the code was asked with.' })),
  client_id: Type.Optional(Type.String({ maxLength: 100, description: 'The app (or HTTP Basic authentication).' })),
  client_secret: Type.Optional(Type.String({ maxLength: 200, description: 'An app\'s secret, when it has one (or HTTP Basic authentication).' })),
};

/** What POST /v1/auth/revoke takes besides the token (RFC 7009 §2.1). */
export const OAuthRevokeFields = {
  token_type_hint: Type.Optional(Type.String({ maxLength: 40, description: '"access_token" or "refresh_token"; both are tried anyway.' })),
  client_id: OAuthTokenFields.client_id,
  client_secret: OAuthTokenFields.client_secret,
};

const AuthorizeFields = {
  client_id: Type.String({ maxLength: 100, description: 'The app, as the server\'s operator registered it (haul-admin oauth-client create).' }),
  redirect_uri: Type.String({ maxLength: 2000, description: 'Where the answer goes: one of the app\'s registered redirect URIs, character for character.' }),
  response_type: Type.Optional(Type.String({ maxLength: 40, description: 'Always "code".' })),
  scope: Type.Optional(Type.String({ maxLength: 200, description: 'What the app asks for: "user" (read the account\'s name and address), "pan" (the drive), "offline" (stay connected: a refresh token), separated by spaces or "+", e.g. "user+pan+offline".' })),
  state: Type.Optional(Type.String({ maxLength: 1000, description: 'The app\'s value, handed back unchanged with the code (required).' })),
  code_challenge: Type.Optional(Type.String({ maxLength: 128, description: 'PKCE (RFC 7636): BASE64URL(SHA-256(code_verifier)), 43 characters (required).' })),
  code_challenge_method: Type.Optional(Type.String({ maxLength: 10, description: 'Always "S256"; "plain" is refused.' })),
};
const AuthorizeQuery = Type.Object(AuthorizeFields);

const ScopeItem = Type.Object({
  name: StringEnum(OAUTH_SCOPES),
  description: Type.String({ description: 'What it lets the app do, in words a person reads on the consent screen.' }),
});

const AUTHORIZE_ERRORS = {
  invalid_argument:
    'The request cannot be granted. `details[0].reason` says why: INVALID_CLIENT (client_id names no app) or INVALID_REDIRECT_URI (redirect_uri is not one the app registered) must not send the person anywhere (show an error instead); REDIRECT (another parameter is wrong: scope, response_type, state, PKCE) carries `details[0].error` (invalid_request, invalid_scope, unsupported_response_type) and `details[0].redirect`, the app\'s redirect URI with that error and the state, where the person should be sent.',
};

const ConnectedAppSchema = Type.Object({
  client_id: Type.String(),
  name: Type.String({ description: 'The app\'s name, as the operator registered it.' }),
  scope: Type.String({ description: 'What the person allowed, space-separated.' }),
  scopes: Type.Array(ScopeItem),
  connected_time: TimeString('When the person first allowed it.'),
  last_used_time: TimeString('When the app last received tokens (a code exchanged or a refresh).'),
});

export const oauthRoutes = {
  oauthMetadata: route({
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    tag,
    summary: 'Authorization server metadata (RFC 8414)',
    description:
      'Where an app finds the consent screen, the token, introspection and revocation endpoints, and what they accept, so a standard client library configures itself from the server\'s address. The addresses follow the address the request came to (or HAUL_PUBLIC_URL when set).',
    auth: 'public',
    response: Type.Object({
      issuer: Type.String(),
      authorization_endpoint: Type.String({ description: 'The consent screen, in the web app.' }),
      token_endpoint: Type.String(),
      introspection_endpoint: Type.String(),
      revocation_endpoint: Type.String(),
      response_types_supported: Type.Array(Type.String()),
      grant_types_supported: Type.Array(Type.String()),
      code_challenge_methods_supported: Type.Array(Type.String()),
      scopes_supported: Type.Array(Type.String()),
      token_endpoint_auth_methods_supported: Type.Array(Type.String()),
      introspection_endpoint_auth_methods_supported: Type.Array(Type.String()),
      revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
    }),
    errors: {},
  }),
  authorizeInfo: route({
    method: 'GET',
    path: '/v1/user/authorize/info',
    tag,
    summary: 'What an app asks for (consent screen)',
    description:
      'Checks an authorization request (the query an app sent the person to the consent screen with) and answers what the screen shows: the app\'s name, what each scope lets it do, and where the person goes next. Nothing is granted.',
    auth: 'user',
    query: AuthorizeQuery,
    response: Type.Object({
      client_id: Type.String(),
      client_name: Type.String({ description: 'The app\'s name, as the operator registered it.' }),
      scope: Type.String({ description: 'The scope asked for, space-separated, in a fixed order.' }),
      scopes: Type.Array(ScopeItem),
      redirect_uri: Type.String(),
      state: Type.String(),
    }),
    errors: AUTHORIZE_ERRORS,
  }),
  authorizeDetect: route({
    method: 'GET',
    path: '/v1/user/authorize/detect',
    tag,
    summary: 'Whether the person already allowed the app',
    description:
      'Answers whether the signed-in person already allowed this app everything the request asks for, so the consent screen may go straight through (POST /v1/user/authorize) without asking again. Revoking the app (DELETE /v1/user/apps/{client_id}) ends that.',
    auth: 'user',
    query: AuthorizeQuery,
    response: Type.Object({ consented: Type.Boolean() }),
    errors: AUTHORIZE_ERRORS,
  }),
  authorize: route({
    method: 'POST',
    path: '/v1/user/authorize',
    tag,
    summary: 'Allow an app (issue an authorization code)',
    description: `The person allows the app: answers a code, valid for ${OAUTH_CODE_TTL_SECONDS} seconds and once, bound to the app, the redirect URI, this account, the scope and the PKCE challenge, and \`redirect_url\`, the redirect URI with \`code\` and \`state\` added, where the browser goes next. The consent is remembered until the person revokes the app, or until the session that gave it is ended from another device. Allowing an app takes a \`sudo_token\` when the account has a password, unless this same session allowed it all before (\`/v1/user/authorize/detect\` answers \`consented\`).`,
    auth: 'user',
    body: Type.Object({ ...AuthorizeFields, sudo_token: Type.Optional(Type.String({ maxLength: 2000, description: 'A sudo token of this session (POST /v1/user/sudo); required when the account has a password.' })) }),
    response: Type.Object({
      code: Type.String({ description: 'For POST /v1/auth/token (grant_type "authorization_code").' }),
      state: Type.String(),
      redirect_url: Type.String({ description: 'The redirect URI with `code` and `state` in its query.' }),
    }),
    errors: { ...AUTHORIZE_ERRORS, invalid_grant: 'A live sudo token of this session is needed: it is missing, expired, or of another session.' },
    example: { client_id: '…', redirect_uri: 'http://127.0.0.1:8123/callback', response_type: 'code', scope: 'user+pan+offline', state: '…', code_challenge: '…', code_challenge_method: 'S256', sudo_token: '…' },
  }),
  introspectToken: route({
    method: 'POST',
    path: '/v1/auth/token/introspect',
    tag,
    summary: 'Is this token live? (RFC 7662)',
    description:
      'Answers whether an access or refresh token is live and, when it is, whose it is, what it may do and when it ends. The caller proves who it is with a confidential app\'s credentials (HTTP Basic, or client_id and client_secret in the body) or with a live access token (`Authorization: Bearer`). An app learns only about tokens issued to it, a person\'s session only about tokens of the same account; anything else reads `{"active": false}`, as a dead or unknown token does. Form bodies (application/x-www-form-urlencoded) are accepted.',
    auth: 'public',
    body: Type.Object({
      token: Type.String({ maxLength: 4000 }),
      token_type_hint: Type.Optional(Type.String({ maxLength: 40, description: '"access_token" or "refresh_token"; both are tried anyway.' })),
      client_id: Type.Optional(Type.String({ maxLength: 100 })),
      client_secret: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    response: Type.Object({
      active: Type.Boolean(),
      scope: Type.Optional(Type.String({ description: 'An app\'s scope; absent for the person\'s own sessions (they may do everything).' })),
      client_id: Type.Optional(Type.String()),
      username: Type.Optional(Type.String({ description: 'The account\'s e-mail address.' })),
      token_type: Type.Optional(Type.String({ description: '"Bearer" for access tokens, "refresh_token" for refresh tokens.' })),
      exp: Type.Optional(Type.Integer()),
      iat: Type.Optional(Type.Integer()),
      sub: Type.Optional(Type.String()),
      iss: Type.Optional(Type.String()),
    }),
    errors: {
      unauthenticated: 'Neither app credentials nor a live access token came.',
      invalid_client: 'The app is unknown, has no secret (a public app introspects with its access token), or the secret is wrong.',
    },
    example: { token: '…', token_type_hint: 'access_token' },
  }),
  listApps: route({
    method: 'GET',
    path: '/v1/user/apps',
    tag,
    summary: 'Connected apps',
    description: 'The apps the person allowed, with what each may do, when it was connected and when it last received tokens.',
    auth: 'user',
    response: Type.Object({ apps: Type.Array(ConnectedAppSchema) }),
    errors: {},
  }),
  revokeApp: route({
    method: 'DELETE',
    path: '/v1/user/apps/:client_id',
    tag,
    summary: 'Disconnect an app',
    description: 'Ends every session of the app in this account at once (its access and refresh tokens stop working), drops its unused codes and forgets the consent: next time the app must ask again.',
    auth: 'user',
    params: Type.Object({ client_id: Type.String({ maxLength: 100 }) }),
    response: Empty,
    errors: { not_found: 'The app is not connected to this account.' },
  }),
};
