/** Accounts: sign-up, sign-in, token refresh and sign-out, and the signed-in user's info. */
import { Type } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../rules/validate.js';
import { TokenResponseSchema, UserInfoSchema } from '../entities.js';
import { route } from './define.js';
import { Empty } from './schema-kit.js';

const tag = 'Accounts';
const Password = Type.String({ maxLength: 1024, description: `The password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.` });
const RefreshToken = Type.String({ maxLength: 200, description: 'A refresh token from sign-up, sign-in or an earlier refresh.' });

export const accountsRoutes = {
  signUp: route({
    method: 'POST',
    path: '/v1/auth/signup',
    tag,
    summary: 'Create an account',
    description:
      'Takes `email`, `password` and an optional display `name` (the part of the e-mail before the @ when left out), creates the account and signs it in: the answer holds its first tokens. Sign-up takes the e-mail in `email`; sign-in takes the same address in `username`.',
    auth: 'public',
    body: Type.Object({
      email: Type.String({ maxLength: 254, description: 'The e-mail address: the account\'s name for signing in. Compared without regard to case.' }),
      password: Password,
      name: Type.Optional(Type.String({ maxLength: 200, description: 'The display name, at most 100 characters after trimming.' })),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'The e-mail is not a valid address, the password is too short or too long, or the name is too long.',
      already_exists: 'An account with this e-mail exists.',
      permission_denied: 'Registration is closed on this server.',
      too_many_requests: 'Too many sign-ups from this network: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { email: 'ada@example.com', password: 'correct horse battery staple' },
  }),
  signIn: route({
    method: 'POST',
    path: '/v1/auth/signin',
    tag,
    summary: 'Sign in',
    description:
      'Takes `username` (the account\'s e-mail address) and `password`, and starts a session: the answer holds its access and refresh tokens. Repeated wrong passwords slow further tries down, per client and per account; a right password from an address the account has signed in from before is never held back by guesses from elsewhere.',
    auth: 'public',
    body: Type.Object({
      username: Type.String({ maxLength: 254, description: 'The e-mail address the account was created with.' }),
      password: Type.String({ maxLength: 1024 }),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_grant: 'The e-mail or the password is wrong (the answer does not say which).',
      permission_denied: 'The account is disabled.',
      too_many_requests: 'Too many tries: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { username: 'ada@example.com', password: 'correct horse battery staple' },
  }),
  refreshToken: route({
    method: 'POST',
    path: '/v1/auth/token',
    tag,
    summary: 'Refresh the tokens',
    description:
      'Exchanges a refresh token for a new access token and a new refresh token of the same session. Each refresh token works once: using one a second time ends its session, the tokens issued from it included.',
    auth: 'public',
    body: Type.Object({
      grant_type: Type.String({ maxLength: 40, description: 'Always "refresh_token".' }),
      refresh_token: Type.Optional(RefreshToken),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'grant_type is not "refresh_token", or refresh_token is missing.',
      invalid_grant: { status: 401, when: 'The refresh token is unknown, used before, expired, or its session has ended (signed out, password changed, account disabled): sign in again.' },
    },
    example: { grant_type: 'refresh_token', refresh_token: '…' },
  }),
  revokeToken: route({
    method: 'POST',
    path: '/v1/auth/revoke',
    tag,
    summary: 'Sign out',
    description: "Ends the session the refresh token belongs to, with its access tokens. An unknown token changes nothing and still succeeds.",
    auth: 'public',
    body: Type.Object({ token: RefreshToken }),
    response: Empty,
    errors: {},
    example: { token: '…' },
  }),
  getMe: route({
    method: 'GET',
    path: '/v1/user/me',
    tag,
    summary: 'The signed-in user',
    description: "The account of the access token: its id, name, e-mail, premium state and whether it is the server's admin.",
    auth: 'user',
    response: UserInfoSchema,
    errors: { file_not_found: 'The account was deleted while the request ran.' },
  }),
  signOutEverywhere: route({
    method: 'DELETE',
    path: '/v1/user/sessions',
    tag,
    summary: 'Sign out everywhere',
    description: 'Ends every session of the account, the calling one too, with their access and refresh tokens and every download link signed for the account.',
    auth: 'user',
    response: Empty,
    errors: {},
  }),
};
