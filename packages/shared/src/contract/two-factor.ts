/**
 * Two-factor sign-in with an authenticator app (TOTP): set it up with a sudo token, confirm it with a first code, get
 * recovery codes; then sign-in and every sudo token also take a code (`verification_code`).
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { Empty } from './schema-kit.js';

const tag = 'Two-factor sign-in';
const Sudo = Type.String({ maxLength: 2000, description: 'From POST /v1/user/sudo, in this session, less than 5 minutes old.' });
const badSudo = 'The sudo token is invalid, expired, or from another session or account: confirm it is you again.';
const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Ten one-time codes, each good for one sign-in or sudo grant in place of the app. Shown this once: keep them somewhere safe.' }),
});

export const twoFactorRoutes = {
  twoFactorStatus: route({
    method: 'GET',
    path: '/v1/user/2fa',
    tag,
    summary: 'Two-factor sign-in: on or off',
    description: 'Whether sign-in and sudo ask for a code from an authenticator app, and how many recovery codes are left unused.',
    auth: 'user',
    response: Type.Object({
      enabled: Type.Boolean(),
      recovery_codes_left: Type.Integer(),
    }),
    errors: {},
  }),
  beginTwoFactor: route({
    method: 'POST',
    path: '/v1/user/2fa/setup',
    tag,
    summary: 'Start setting up an authenticator app',
    description:
      'Makes a new secret and answers it, with its otpauth:// address for a QR code. Nothing is asked for yet: it counts once POST /v1/user/2fa/enable gets a code the app made from it. Starting again replaces a secret not yet confirmed.',
    auth: 'user',
    body: Type.Object({ sudo_token: Sudo }),
    response: Type.Object({
      secret: Type.String({ description: 'Base32, for typing into the app by hand.' }),
      otpauth_uri: Type.String({ description: 'otpauth://totp/… — what the QR code holds.' }),
    }),
    errors: {
      invalid_grant: badSudo,
      already_exists: 'Two-factor sign-in is on already: turn it off first to move it to another app.',
      file_not_found: 'The account was deleted while the request ran.',
    },
    example: { sudo_token: '…' },
  }),
  enableTwoFactor: route({
    method: 'POST',
    path: '/v1/user/2fa/enable',
    tag,
    summary: 'Turn two-factor sign-in on',
    description: 'Confirms the set-up with the code the app shows now; from then on sign-in and sudo ask for a code. Answers the recovery codes, this once.',
    auth: 'user',
    body: Type.Object({ sudo_token: Sudo, code: Type.String({ maxLength: 20, description: 'The 6 digits the app shows.' }) }),
    response: RecoveryCodes,
    errors: {
      invalid_grant: `${badSudo} Or the code is wrong.`,
      already_exists: 'Two-factor sign-in is on already.',
      failed_precondition: 'No set-up is waiting: call POST /v1/user/2fa/setup first.',
      too_many_requests: 'Too many wrong codes: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { sudo_token: '…', code: '123456' },
  }),
  disableTwoFactor: route({
    method: 'POST',
    path: '/v1/user/2fa/disable',
    tag,
    summary: 'Turn two-factor sign-in off',
    description: 'Drops the secret and the recovery codes: sign-in asks for the password alone again. The sudo token must have been granted with a code (it is, once two-factor sign-in is on).',
    auth: 'user',
    body: Type.Object({ sudo_token: Sudo }),
    response: Empty,
    errors: { invalid_grant: badSudo },
    example: { sudo_token: '…' },
  }),
  replaceRecoveryCodes: route({
    method: 'POST',
    path: '/v1/user/2fa/recovery-codes',
    tag,
    summary: 'New recovery codes',
    description: 'Replaces every recovery code, used or not, with ten new ones, answered this once.',
    auth: 'user',
    body: Type.Object({ sudo_token: Sudo }),
    response: RecoveryCodes,
    errors: {
      invalid_grant: badSudo,
      failed_precondition: 'Two-factor sign-in is off.',
    },
    example: { sudo_token: '…' },
  }),
};
