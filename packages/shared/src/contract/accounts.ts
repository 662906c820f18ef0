/**
 * Accounts: sign-up, sign-in, token refresh and sign-out, the signed-in user's info, and what an e-mail code unlocks:
 * a verified sign-up, a forgotten password reset, a sudo token for a sensitive change, a new password; deleting the
 * account.
 */
import { Type } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../rules/validate.js';
import { PHONE_NUMBER_MAX_LENGTH } from '../rules/phone.js';
import { TokenResponseSchema, UserInfoSchema } from '../entities.js';
import { route } from './define.js';
import { OAuthTokenFields, OAuthRevokeFields, TokenGrantResponseSchema } from './oauth.js';
import { DecimalString, Empty, StringEnum } from './schema-kit.js';

const tag = 'Accounts';
const Password = Type.String({ maxLength: 1024, description: `The password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.` });
const RefreshToken = Type.String({ maxLength: 200, description: 'A refresh token from sign-up, sign-in or an earlier refresh.' });
const TwoFactorCode = Type.String({ maxLength: 40, description: 'Two-factor sign-in: the 6 digits the authenticator app shows now, or an unused recovery code.' });
const PhoneNumber = (description: string) => Type.String({ maxLength: PHONE_NUMBER_MAX_LENGTH, description });
const VerificationToken = Type.String({ maxLength: 200, description: 'From POST /v1/auth/verification/verify: works once, for the usage and address its code was sent for.' });

/** What a verification code is for (the seeds' list). SIGN_IN and REGISTER_SIGN_IN are refused (no sign-in by code). */
export const VERIFICATION_USAGES = [
  'REGISTER',
  'SIGN_IN',
  'PASSWORD_RESET',
  'EMAIL_ADDRESS_CHANGE',
  'PHONE_NUMBER_CHANGE',
  'DEFAULT',
  'EMAIL_ADDRESS_VERIFICATION',
  'REGISTER_SIGN_IN',
  'PHONE_NUMBER_VERIFICATION',
  'DELETION',
] as const;
export type VerificationUsage = (typeof VERIFICATION_USAGES)[number];

/** Why an account may not be deleted now. */
export const DELETION_BLOCKERS = ['LAST_ADMINISTRATOR'] as const;

const DeletionEligibilitySchema = Type.Object({
  eligible: Type.Boolean({ description: 'Whether POST /v1/user/me/deletion would delete the account now.' }),
  reasons: Type.Array(
    Type.Object({
      reason: StringEnum(DELETION_BLOCKERS, { description: 'LAST_ADMINISTRATOR: no other enabled account is an administrator.' }),
      description: Type.String({ description: 'What stands in the way and what to do, in words a person can read.' }),
    }),
    { description: 'Why the account cannot be deleted now; empty when it can.' },
  ),
  file_count: DecimalString('Files that would be erased, the trash included.'),
  folder_count: DecimalString('Folders that would be erased, the trash included.'),
  size: DecimalString('Bytes of those files.'),
  share_count: DecimalString('Share links that still open: they would stop at once.'),
  cloud_download_count: DecimalString('Cloud downloads waiting, running or paused: they would stop, and what they fetched so far would be dropped.'),
  upload_count: DecimalString('Uploads not finished: their bytes would be dropped.'),
});

export const accountsRoutes = {
  signUp: route({
    method: 'POST',
    path: '/v1/auth/signup',
    tag,
    summary: 'Create an account',
    description:
      'Takes `email`, `password` and an optional display `name` (the part of the e-mail before the @ when left out), creates the account and signs it in: the answer holds its first tokens. Sign-up takes the e-mail in `email`; sign-in takes the same address in `username`. A server that can send mail asks for a verified address: first request a code (POST /v1/auth/verification, usage REGISTER), verify it, and send the token in `verification_token`.',
    auth: 'public',
    body: Type.Object({
      email: Type.String({ maxLength: 254, description: 'The e-mail address: the account\'s name for signing in. Compared without regard to case.' }),
      password: Password,
      name: Type.Optional(Type.String({ maxLength: 200, description: 'The display name, at most 100 characters after trimming.' })),
      verification_token: Type.Optional(Type.String({ maxLength: 200, description: 'A verification token of usage REGISTER for this e-mail. Needed when the server asks for verified addresses (HAUL_SIGNUP_VERIFICATION; by default whenever it can send mail); ignored otherwise.' })),
      invitation_code: Type.Optional(Type.String({ maxLength: 64, description: "The invite code of the link this person came from (`invitation-code`): the inviter and the new account may both get premium days. A code that names no account is ignored and the account is made all the same, so a stale link never stands in the way of signing up." })),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'The e-mail is not a valid address, the password is too short or too long, the name is too long, or the server asks for a verified address and no verification_token came.',
      invalid_grant: 'The verification token is unknown, used, expired, or not for signing up with this e-mail.',
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
      'Takes `username` (the account\'s e-mail address, or its phone number: a username that looks like a phone number is taken as one; `phone_number` says so outright) and `password`, and starts a session: the answer holds its access and refresh tokens. Repeated wrong passwords slow further tries down, per client and per account; a right password from an address the account has signed in from before is never held back by guesses from elsewhere. An account with two-factor sign-in also needs `verification_code`: without it a right password answers two_factor_required, and the client asks for the code and sends both again.',
    auth: 'public',
    body: Type.Object({
      username: Type.Optional(Type.String({ maxLength: 254, description: "The account's e-mail address, or its phone number with the country code (`+44 7911 123456`)." })),
      phone_number: Type.Optional(PhoneNumber("The account's phone number, instead of `username`.")),
      password: Type.String({ maxLength: 1024 }),
      verification_code: Type.Optional(TwoFactorCode),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'Neither `username` nor `phone_number` came, or the phone number is not a valid number with its country code.',
      invalid_grant: 'The e-mail (or phone number) or the password is wrong (the answer does not say which), or the two-factor code is wrong or was used already.',
      two_factor_required: 'The password is right and the account has two-factor sign-in: send a code from its authenticator app (or a recovery code) in `verification_code`.',
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
      'With grant_type "refresh_token": exchanges a refresh token for a new access token and a new refresh token of the same session. Each refresh token works once: using one a second time ends its session, the tokens issued from it included. ' +
      'With grant_type "urn:ietf:params:oauth:grant-type:device_code": a device polling for its sign-in (POST /v1/auth/device/code) sends its `device_code`; once the person approved it, the answer holds the tokens of a new session. ' +
      'With grant_type "authorization_code" (a third-party app, RFC 6749 §4.1.3 with PKCE): the app sends the `code` from the consent screen, the same `redirect_uri`, its `client_id`, the `code_verifier`, and its secret when it has one (HTTP Basic or `client_secret`); the answer holds the tokens of the app\'s own session in the account, a refresh token only with the `offline` scope. Form bodies (application/x-www-form-urlencoded) are accepted.',
    auth: 'public',
    body: Type.Object({
      grant_type: Type.String({ maxLength: 100, description: '"refresh_token", "authorization_code" for a third-party app, or "urn:ietf:params:oauth:grant-type:device_code" for a device signing in.' }),
      refresh_token: Type.Optional(RefreshToken),
      device_code: Type.Optional(Type.String({ maxLength: 200, description: 'From POST /v1/auth/device/code (device sign-in).' })),
      ...OAuthTokenFields,
    }),
    response: TokenGrantResponseSchema,
    errors: {
      invalid_argument: 'grant_type is not one of those above, or the token or code it needs is missing.',
      invalid_grant: {
        status: [401, 400],
        when: '401: the refresh token is unknown, used before, expired, or its session has ended (signed out, password changed, account disabled): sign in again. 400: the device code is unknown or was used already; or the authorization code is unknown, expired, used before (which also ends the session issued for it), or not for this client, redirect_uri or code_verifier.',
      },
      invalid_client: 'authorization_code, or a refresh token of an app with a secret: the app is unknown or its secret is missing or wrong.',
      authorization_pending: 'Device sign-in: the person has not answered yet; poll again after `interval` seconds.',
      slow_down: 'Device sign-in: polled sooner than `interval`; wait 5 seconds more between polls from now on.',
      expired_token: 'Device sign-in: the code expired unanswered; start again.',
      access_denied: 'Device sign-in: the person refused it.',
    },
    example: { grant_type: 'refresh_token', refresh_token: '…' },
  }),
  revokeToken: route({
    method: 'POST',
    path: '/v1/auth/revoke',
    tag,
    summary: 'Sign out',
    description: "Ends the session the refresh token belongs to, with its access tokens. An app (RFC 7009) may send its access or refresh token, with `client_id` (and its secret, when it has one): the app's session ends. An unknown token changes nothing and still succeeds.",
    auth: 'public',
    body: Type.Object({ token: Type.String({ maxLength: 4000, description: 'A refresh token, or an app\'s access token.' }), ...OAuthRevokeFields }),
    response: Empty,
    errors: { invalid_client: 'An app named itself and its secret is missing or wrong, or the token was issued to another app.' },
    example: { token: '…' },
  }),
  getMe: route({
    method: 'GET',
    path: '/v1/user/me',
    tag,
    appScope: 'user',
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
  requestVerification: route({
    method: 'POST',
    path: '/v1/auth/verification',
    tag,
    summary: 'Send a verification code',
    description:
      'Sends a 6-digit code, by e-mail or text message, and answers its `verification_id`. The code lasts 10 minutes and works once; five wrong tries end it (request a new one). ' +
      'The usage decides where the code goes: REGISTER to the address in `email` and PASSWORD_RESET to the address in `email` or the number in `phone_number` (signed out); DEFAULT, DELETION and EMAIL_ADDRESS_VERIFICATION to the signed-in account\'s own address (send the bearer token), and DEFAULT and DELETION with `selected_channel` SMS by text message to its own bound number (never to another); EMAIL_ADDRESS_CHANGE to the new address in `email`, PHONE_NUMBER_CHANGE and PHONE_NUMBER_VERIFICATION by text message to the number in `phone_number` (signed in). ' +
      'For PASSWORD_RESET the answer is the same whether an account has that address or number or not: an unknown one gets an id too, and no message. ' +
      'SIGN_IN and REGISTER_SIGN_IN (signed out, to the address in `email`; SIGN_IN also by text message to the number in `phone_number`, when an account has bound it) send a code to sign in with (POST /v1/auth/signin/token), answered alike whether the address or number has an account or not; REGISTER_SIGN_IN makes the account at sign-in when registration is open, and sends nothing for an address no account has otherwise. The message is in the language of `locale`, else of Accept-Language, else English.',
    auth: 'public',
    body: Type.Object({
      usage: StringEnum(VERIFICATION_USAGES, { description: 'What the code is for.' }),
      email: Type.Optional(Type.String({ maxLength: 254, description: 'The address to send to (REGISTER, PASSWORD_RESET, EMAIL_ADDRESS_CHANGE).' })),
      phone_number: Type.Optional(PhoneNumber('The number to text, with its country code (PHONE_NUMBER_CHANGE, PHONE_NUMBER_VERIFICATION; PASSWORD_RESET and SIGN_IN instead of `email`).')),
      target: Type.Optional(Type.String({ maxLength: 40, description: '"USER" (the signed-in account) or "ANY"; accepted for compatibility: the usage decides where the code goes.' })),
      locale: Type.Optional(Type.String({ maxLength: 35, description: 'The language of the mail, e.g. "en-US" or "zh-CN".' })),
      selected_channel: Type.Optional(Type.String({ maxLength: 40, description: '"VERIFICATION_EMAIL" / "EMAIL", or "VERIFICATION_PHONE" / "SMS"; left out, the usage and the fields given decide.' })),
    }),
    response: Type.Object({
      verification_id: Type.String({ description: 'Send it with the code to POST /v1/auth/verification/verify.' }),
      expires_in: Type.Integer({ description: 'Seconds the code lasts.' }),
    }),
    errors: {
      invalid_argument: 'The usage needs an e-mail or a phone number and none (or no valid one) came, or the channel does not fit the usage.',
      unauthenticated: 'The usage is about the signed-in account (DEFAULT, DELETION, EMAIL_ADDRESS_VERIFICATION, EMAIL_ADDRESS_CHANGE, PHONE_NUMBER_CHANGE, PHONE_NUMBER_VERIFICATION) and no valid access token came.',
      already_exists: 'REGISTER or EMAIL_ADDRESS_CHANGE for an address, or PHONE_NUMBER_CHANGE for a number, that another account already has.',
      permission_denied: 'REGISTER while registration is closed on this server.',
      too_many_requests: 'Too many codes for this address or from this network: `details[0].retry_after_seconds` says when to try again.',
      unavailable: 'The mail server or the text-message gateway could not take the message, or the database is away: try again later.',
    },
    example: { usage: 'PASSWORD_RESET', email: 'ada@example.com', locale: 'en-US' },
  }),
  verifyVerification: route({
    method: 'POST',
    path: '/v1/auth/verification/verify',
    tag,
    summary: 'Check a verification code',
    description:
      'Exchanges the code from the mail or text message for a `verification_token`, which the call the code was for takes (sign-up, password reset, sudo). A code works once; the token lasts 10 minutes and works once.',
    auth: 'public',
    body: Type.Object({
      verification_id: Type.String({ maxLength: 100, description: 'From POST /v1/auth/verification.' }),
      verification_code: Type.String({ maxLength: 20, description: 'The 6 digits from the mail.' }),
    }),
    response: Type.Object({
      verification_token: Type.String({ description: 'Works once, for the usage and address of the code.' }),
      expires_in: Type.Integer({ description: 'Seconds the token lasts.' }),
    }),
    errors: {
      invalid_grant: 'The code is wrong, or the verification is unknown, expired, used, or ended by five wrong codes: request a new code.',
    },
    example: { verification_id: '…', verification_code: '123456' },
  }),
  resetPassword: route({
    method: 'POST',
    path: '/v1/auth/reset',
    tag,
    summary: 'Reset a forgotten password',
    description:
      'Sets a new password with a verification token of usage PASSWORD_RESET, ends every session of the account, and signs in: the answer holds the tokens of a fresh session. `email` or `phone_number`, when given, must be the address or number the code went to.',
    auth: 'public',
    body: Type.Object({
      verification_token: VerificationToken,
      new_password: Password,
      email: Type.Optional(Type.String({ maxLength: 254 })),
      phone_number: Type.Optional(PhoneNumber('The number the code was texted to (a reset by phone).')),
      verification_code: Type.Optional(TwoFactorCode),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'The new password is too short or too long, or the phone number is not a valid number.',
      invalid_grant: 'The verification token is unknown, used, expired, not for a password reset, or for another address or number; or the two-factor code is wrong or was used already.',
      permission_denied: 'The account is disabled.',
      two_factor_required: 'The account has two-factor sign-in: send a code from its authenticator app (or a recovery code) in `verification_code` with the same verification token, which is still unspent.',
      too_many_requests: 'Too many wrong two-factor codes: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { verification_token: '…', new_password: 'a new long password' },
  }),
  signInWithCode: route({
    method: 'POST',
    path: '/v1/auth/signin/token',
    tag,
    summary: 'Sign in with a mailed code',
    description:
      'Signs in with a verification token of usage SIGN_IN or REGISTER_SIGN_IN for `email`: the account with that address, or, for REGISTER_SIGN_IN on a server whose registration is open, a new account without a password made for it (the code proved the address). Or with a token of usage SIGN_IN for `phone_number` (a code texted to it): the account that has bound that number; a number never makes an account. An account with two-factor sign-in sends its authenticator code in `verification_code` with the same, still unspent, token.',
    auth: 'public',
    body: Type.Object({
      verification_token: VerificationToken,
      email: Type.Optional(Type.String({ maxLength: 254, description: 'The address the code went to.' })),
      phone_number: Type.Optional(PhoneNumber('The number the code was texted to, instead of `email`.')),
      verification_code: Type.Optional(TwoFactorCode),
      invitation_code: Type.Optional(Type.String({ maxLength: 64, description: 'The invitation a new account came by (its inviter is rewarded).' })),
    }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'Neither `email` nor `phone_number`, or a phone number that is not valid.',
      invalid_grant: 'The verification token is unknown, used, expired, not for signing in, or for another address or number; or no account has the address or number and none is made; or the two-factor code is wrong or was used already.',
      permission_denied: 'The account is disabled.',
      two_factor_required: 'The account has two-factor sign-in: send a code from its authenticator app (or a recovery code) in `verification_code` with the same verification token, which is still unspent.',
      too_many_requests: 'Too many wrong two-factor codes: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { verification_token: '…', email: 'ann@example.com' },
  }),
  grantSudo: route({
    method: 'POST',
    path: '/v1/user/sudo',
    tag,
    summary: 'Confirm it is you (sudo)',
    description:
      "Trades the account's `password`, or a `verification_token` of a code sent to the account's own address (usage DEFAULT, DELETION or EMAIL_ADDRESS_VERIFICATION), for a `sudo_token` that sensitive changes (a new password) take. It lasts 5 minutes, works only in the session that asked for it, and ends once a password change or sign-out everywhere is done. Wrong passwords count like sign-in guesses.",
    auth: 'user',
    body: Type.Object({
      password: Type.Optional(Type.String({ maxLength: 1024 })),
      verification_token: Type.Optional(VerificationToken),
      verification_code: Type.Optional(TwoFactorCode),
    }),
    response: Type.Object({
      sudo_token: Type.String({ description: 'Send it with the sensitive call, from this session.' }),
      expires_in: Type.Integer({ description: 'Seconds the sudo token lasts.' }),
    }),
    errors: {
      invalid_argument: 'Neither a password nor a verification token came.',
      invalid_grant: "The password is wrong, or the verification token is unknown, used, expired, or not for the account's own address, or the two-factor code is wrong or was used already.",
      too_many_requests: 'Too many wrong passwords or two-factor codes: `details[0].retry_after_seconds` says when to try again.',
      two_factor_required: 'The account has two-factor sign-in: send a code from its authenticator app (or a recovery code) in `verification_code` with the password or verification token.',
    },
    example: { password: 'correct horse battery staple' },
  }),
  setPassword: route({
    method: 'POST',
    path: '/v1/user/password',
    tag,
    summary: 'Change the password',
    description:
      "Sets a new password with a sudo token of this session (POST /v1/user/sudo). Every other session of the account ends, with its download links; this one stays signed in.",
    auth: 'user',
    body: Type.Object({
      sudo_token: Type.String({ maxLength: 2000 }),
      new_password: Password,
    }),
    response: Empty,
    errors: {
      invalid_argument: 'The new password is too short or too long.',
      invalid_grant: 'The sudo token is invalid, expired, or from another session or account: confirm it is you again.',
    },
    example: { sudo_token: '…', new_password: 'a new long password' },
  }),
  changeContact: route({
    method: 'POST',
    path: '/v1/user/contact',
    tag,
    summary: 'Change the e-mail address or the phone number',
    description:
      "Makes `email` the account's address (for signing in, codes and notices), with a sudo token of this session and a verification token of a code mailed to the new address (POST /v1/auth/verification, usage EMAIL_ADDRESS_CHANGE); the old address is told of the change. " +
      'Or binds `phone_number` to the account (a first number or a new one; for signing in and password resets by text message), with a sudo token and a verification token of a code texted to that number (usage PHONE_NUMBER_CHANGE or PHONE_NUMBER_VERIFICATION). ' +
      'To remove the phone number, send `phone_number: ""` with a sudo token and no verification token. Answers the account as it is now.',
    auth: 'user',
    body: Type.Object({
      sudo_token: Type.String({ maxLength: 2000 }),
      verification_token: Type.Optional(VerificationToken),
      email: Type.Optional(Type.String({ maxLength: 254, description: 'The new address: the one the code went to.' })),
      phone_number: Type.Optional(PhoneNumber('The number to bind (the one the code went to), or "" to remove the phone number.')),
    }),
    response: UserInfoSchema,
    errors: {
      invalid_argument: 'Neither a valid e-mail nor a valid phone number came (or both did), it is what the account has already, or the verification token is missing.',
      invalid_grant: 'The sudo token is invalid or expired, or the verification token is unknown, used, expired, or not for this address or number and account.',
      already_exists: 'Another account has this address or phone number.',
    },
    example: { sudo_token: '…', verification_token: '…', email: 'ada@new.example' },
  }),
  accountDeletionEligibility: route({
    method: 'GET',
    path: '/v1/user/me/deletion/eligibility',
    tag,
    summary: 'What deleting the account would remove',
    description:
      'Whether the account may be deleted now (the last administrator may not: `reasons` says why), and what deleting it would remove: files and folders, their bytes, share links, cloud downloads and unfinished uploads.',
    auth: 'user',
    response: DeletionEligibilitySchema,
    errors: { file_not_found: 'The account was deleted while the request ran.' },
  }),
  deleteAccount: route({
    method: 'POST',
    path: '/v1/user/me/deletion',
    tag,
    summary: 'Delete the account',
    description:
      "Deletes the account with a sudo token of this session (POST /v1/user/sudo, with the password or a DELETION code). It ends at once: every session and token, every download, thumbnail and media link, and every share link stop working, sign-in with its address fails, and the address may be used for a new account right away. Then everything it had is erased in the background: files and folders, content no other account stores, shares, cloud downloads and their partial files, unfinished uploads, history. Nothing can be brought back.",
    auth: 'user',
    body: Type.Object({
      sudo_token: Type.String({ maxLength: 2000, description: 'From POST /v1/user/sudo, in this session, less than 5 minutes old.' }),
    }),
    response: Empty,
    errors: {
      invalid_argument: 'No sudo_token came.',
      invalid_grant: 'The sudo token is invalid, expired, or from another session or account: confirm it is you again.',
      failed_precondition: 'The account may not be deleted now: it is the last administrator (`details[0].reason` is LAST_ADMINISTRATOR). Make another account an administrator first.',
    },
    example: { sudo_token: '…' },
  }),
};
