/**
 * Passkeys (WebAuthn): an account registers them with a sudo token, and signs in with one in place of the password and
 * the two-factor code (the authenticator checks the person: a PIN, a fingerprint, a face). The relying party is the
 * host the app was opened at (or the pinned public URL), so a passkey made at one address works at that address.
 */
import { Type } from '@sinclair/typebox';
import { TokenResponseSchema } from '../entities.js';
import { route } from './define.js';
import { Empty, TimeString } from './schema-kit.js';

const tag = 'Passkeys';
const Sudo = Type.String({ maxLength: 2000, description: 'From POST /v1/user/sudo (the password or a mailed code), in this session, less than 5 minutes old.' });
const badSudo = 'The sudo token is invalid, expired, or from another session or account: confirm it is you again.';
const PasskeyName = Type.String({ minLength: 1, maxLength: 64, description: 'What the person calls it ("Phone", "Work laptop"); trimmed, 1 to 64 characters.' });
const PasskeyId = Type.String({ maxLength: 64, description: "The passkey's id in this account (not the credential id)." });
/** WebAuthn's JSON shapes, as @simplewebauthn and the browsers' toJSON() write them: checked by the server in full. */
const WebAuthnJson = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });
const noHost =
  'Passkeys need the app opened at a name (localhost, or the domain of an HTTPS address), not at an IP address, and over HTTPS anywhere but localhost.';

export const PasskeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: TimeString('When it was added (RFC 3339).'),
  last_used_at: TimeString("When it last signed in (RFC 3339), or '' if never."),
  synced: Type.Boolean({ description: 'Whether the authenticator may copy it to the owner\'s other devices (a synced passkey).' }),
});

export const passkeysRoutes = {
  listPasskeys: route({
    method: 'GET',
    path: '/v1/user/passkeys',
    tag,
    summary: 'List passkeys',
    description: 'The passkeys of the signed-in account, oldest first.',
    auth: 'user',
    response: Type.Object({ passkeys: Type.Array(PasskeySchema) }),
    errors: {},
  }),
  passkeyRegistrationOptions: route({
    method: 'POST',
    path: '/v1/user/passkeys/options',
    tag,
    summary: 'Start adding a passkey',
    description:
      "Answers the options for navigator.credentials.create() (PublicKeyCredentialCreationOptionsJSON): a fresh challenge, good for 5 minutes and once, in this session; the account's passkeys excluded, so one authenticator is not added twice. The passkey must be discoverable and verify the person.",
    auth: 'user',
    body: Type.Object({ sudo_token: Sudo }),
    response: Type.Object({ options: WebAuthnJson('PublicKeyCredentialCreationOptionsJSON.') }),
    errors: {
      invalid_grant: badSudo,
      failed_precondition: noHost,
      file_not_found: 'The account was deleted while the request ran.',
    },
    example: { sudo_token: '…' },
  }),
  addPasskey: route({
    method: 'POST',
    path: '/v1/user/passkeys',
    tag,
    summary: 'Add a passkey',
    description:
      "Checks what navigator.credentials.create() answered (RegistrationResponseJSON) against the challenge of POST /v1/user/passkeys/options, this host and this account, and keeps the passkey. The challenge is spent, whether the check passes or not.",
    auth: 'user',
    body: Type.Object({ sudo_token: Sudo, credential: WebAuthnJson('RegistrationResponseJSON.'), name: Type.Optional(PasskeyName) }),
    response: PasskeySchema,
    errors: {
      invalid_grant: `${badSudo} Or the challenge is unknown, used, expired, or another session's.`,
      invalid_argument: 'The credential is malformed, was made for another host, or did not verify the person; or the name is empty or too long.',
      already_exists: 'This passkey is registered already.',
      failed_precondition: noHost,
    },
    example: { sudo_token: '…', credential: { id: '…', rawId: '…', type: 'public-key', response: {} }, name: 'Phone' },
  }),
  renamePasskey: route({
    method: 'PATCH',
    path: '/v1/user/passkeys/:id',
    tag,
    summary: 'Rename a passkey',
    description: 'Changes the name the account pages show. No sudo token: a name opens nothing.',
    auth: 'user',
    params: Type.Object({ id: PasskeyId }),
    body: Type.Object({ name: PasskeyName }),
    response: PasskeySchema,
    errors: {
      not_found: 'No passkey of this account has that id.',
      invalid_argument: 'The name is empty or too long.',
    },
    example: { name: 'Work laptop' },
  }),
  removePasskey: route({
    method: 'DELETE',
    path: '/v1/user/passkeys/:id',
    tag,
    summary: 'Remove a passkey',
    description: 'The passkey stops signing in at once. Sessions it started stay until signed out (sign out everywhere ends them too). The device still holds it: remove it there as well.',
    auth: 'user',
    params: Type.Object({ id: PasskeyId }),
    body: Type.Object({ sudo_token: Sudo }),
    response: Empty,
    errors: {
      invalid_grant: badSudo,
      not_found: 'No passkey of this account has that id (it may be removed already).',
    },
    example: { sudo_token: '…' },
  }),
  passkeySignInOptions: route({
    method: 'POST',
    path: '/v1/auth/passkey/options',
    tag,
    summary: 'Start signing in with a passkey',
    description:
      'Answers the options for navigator.credentials.get() (PublicKeyCredentialRequestOptionsJSON) with no allowed list: the browser offers the passkeys it holds for this host (the sign-in field\'s autofill, or a dialog). The challenge is good for 5 minutes and once.',
    auth: 'public',
    body: Type.Object({}),
    response: Type.Object({ options: WebAuthnJson('PublicKeyCredentialRequestOptionsJSON.') }),
    errors: {
      failed_precondition: noHost,
      too_many_requests: 'Too many sign-in starts from this network: `details[0].retry_after_seconds` says when to try again.',
    },
    example: {},
  }),
  signInWithPasskey: route({
    method: 'POST',
    path: '/v1/auth/passkey/signin',
    tag,
    summary: 'Sign in with a passkey',
    description:
      'Checks what navigator.credentials.get() answered (AuthenticationResponseJSON) and starts a session, as a password sign-in does: the passkey counts as both factors, so no two-factor code is asked.',
    auth: 'public',
    body: Type.Object({ credential: WebAuthnJson('AuthenticationResponseJSON.') }),
    response: TokenResponseSchema,
    errors: {
      invalid_argument: 'The credential is malformed.',
      invalid_grant: 'The passkey is not registered here (it may have been removed from the account), or its signature, host, challenge or person check failed; or the challenge is unknown, used or expired.',
      permission_denied: 'The account is disabled.',
      failed_precondition: noHost,
    },
    example: { credential: { id: '…', rawId: '…', type: 'public-key', response: {} } },
  }),
};
