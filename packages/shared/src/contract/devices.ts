/**
 * Devices: the account's signed-in devices (its sessions) and signing one out, and device sign-in (RFC 8628) — a TV,
 * a script or the command line shows a short code and a QR code, the person approves it from a signed-in browser,
 * and the device, polling, gets its tokens.
 */
import { Type } from '@sinclair/typebox';
import { DEVICE_CODE_GRANT } from '../constants.js';
import { route } from './define.js';
import { Empty, TimeString } from './schema-kit.js';

const tag = 'Devices';

/** Seconds a device code lasts, and the slowest a device may poll at first. */
export const DEVICE_CODE_TTL_SECONDS = 600;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

const UserCode = Type.String({ maxLength: 20, description: 'The short code the device shows, e.g. "BDWP-HQPK"; case, spaces and the dash do not matter.' });

export const SessionSchema = Type.Object({
  id: Type.String(),
  device: Type.String({ description: 'What the device is, read from its browser or app name: "Chrome on Windows", "haul command line".' }),
  user_agent: Type.String({ description: 'The browser or app string the session began with.' }),
  ip: Type.String({ description: 'The network the session began from (an IPv6 address is kept to its /64).' }),
  created_time: TimeString('When the session began (a sign-in).'),
  last_used_time: TimeString('When the session last refreshed its tokens.'),
  current: Type.Boolean({ description: 'Whether it is the session making this call.' }),
  born: Type.Array(
    Type.Object({
      kind: Type.Union([Type.Literal('device'), Type.Literal('app'), Type.Literal('app_password')]),
      id: Type.String({ description: "The device's session id, the app's client id, or the app password's id." }),
      name: Type.String(),
    }),
    { description: 'What was approved, allowed or made from this session and is still live: devices signed in by code, apps, app passwords. Ending this session from another device ends them too; signing out of it does not.' },
  ),
});

const DeviceLoginSchema = Type.Object({
  client_name: Type.String({ description: 'What the device said it is, e.g. "Living room TV"; its browser or app name when it said nothing.' }),
  user_agent: Type.String(),
  ip: Type.String({ description: 'The network the device asked from.' }),
  created_time: TimeString(),
  expires_time: TimeString(),
});

export const devicesRoutes = {
  listSessions: route({
    method: 'GET',
    path: '/v1/user/sessions',
    tag,
    summary: 'Signed-in devices',
    description: 'Every session of the account: each sign-in on a browser, phone, TV or the command line, newest use first. Connected apps are listed apart (GET /v1/user/apps).',
    auth: 'user',
    response: Type.Object({ sessions: Type.Array(SessionSchema) }),
    errors: {},
  }),
  endSession: route({
    method: 'POST',
    path: '/v1/user/sessions::end',
    tag,
    summary: 'Sign out one device',
    description:
      'Ends one session of the account with a sudo token of the calling session (POST /v1/user/sudo): its access and refresh tokens stop working at once. To end the calling session, sign out (POST /v1/auth/revoke).',
    auth: 'user',
    body: Type.Object({
      session_id: Type.String({ maxLength: 100 }),
      sudo_token: Type.String({ maxLength: 2000 }),
    }),
    response: Empty,
    errors: {
      invalid_argument: 'The session is the calling one: sign out instead.',
      invalid_grant: 'The sudo token is invalid, expired, or from another session or account: confirm it is you again.',
      file_not_found: 'No session of this account has that id (it may have ended already).',
    },
    example: { session_id: '…', sudo_token: '…' },
  }),
  startDeviceLogin: route({
    method: 'POST',
    path: '/v1/auth/device/code',
    tag,
    summary: 'Start a device sign-in',
    description:
      'Answers a `device_code` the device keeps to itself and a short `user_code` it shows, with the address (and a QR code of `verification_uri_complete`) where the person approves it. The device then polls POST /v1/auth/token with grant_type ' +
      `"${DEVICE_CODE_GRANT}" and the device_code, no faster than \`interval\` seconds: authorization_pending until the person answers, slow_down (wait 5 s more from then on) when too fast, access_denied when they said no, expired_token after \`expires_in\`. Once approved, the next poll answers the tokens of a new session.`,
    auth: 'public',
    body: Type.Object({
      client_name: Type.Optional(Type.String({ maxLength: 100, description: 'What the device is, shown on the approval screen, e.g. "Living room TV".' })),
      client_id: Type.Optional(Type.String({ maxLength: 200, description: 'Accepted for compatibility with RFC 8628 clients; the session is a first-party one either way.' })),
      scope: Type.Optional(Type.String({ maxLength: 200, description: 'Accepted for compatibility; a device session may do what a signed-in browser may.' })),
    }),
    response: Type.Object({
      device_code: Type.String({ description: 'Secret: only the device polls with it.' }),
      user_code: Type.String({ description: 'Eight letters, shown as two groups of four.' }),
      verification_uri: Type.String({ description: 'Where the person types the user code.' }),
      verification_uri_complete: Type.String({ description: 'The same address with the code filled in: what the QR code holds.' }),
      short_uri_complete: Type.String({ description: 'A short form of verification_uri_complete for small screens.' }),
      expires_in: Type.Integer({ description: 'Seconds both codes last.' }),
      interval: Type.Integer({ description: 'Seconds to wait between polls.' }),
    }),
    errors: {
      too_many_requests: 'Too many device sign-ins started from this network: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { client_name: 'Living room TV' },
  }),
  deviceLoginInfo: route({
    method: 'GET',
    path: '/v1/user/device/authorize',
    tag,
    summary: 'Which device asks to sign in',
    description: 'What the approval screen shows before the person says yes: the device, where it asked from and until when the code works.',
    auth: 'user',
    query: Type.Object({ user_code: UserCode }),
    response: DeviceLoginSchema,
    errors: {
      file_not_found: 'No device sign-in waits with that code: it is mistyped, expired, or answered already.',
      too_many_requests: 'Too many wrong codes: `details[0].retry_after_seconds` says when to try again.',
    },
  }),
  authorizeDevice: route({
    method: 'POST',
    path: '/v1/user/device/authorize',
    tag,
    summary: 'Approve or refuse a device sign-in',
    description:
      'With `approve: true` the device that shows the code is signed in to this account at its next poll, as a session of its own (it appears among the signed-in devices, and under this session as born of it: ending this session from another device signs the device out too); with false its poll answers access_denied. Approving takes a `sudo_token` when the account has a password: a stolen access token alone must not sign a new device in. A code is answered once.',
    auth: 'user',
    body: Type.Object({
      user_code: UserCode,
      approve: Type.Boolean(),
      sudo_token: Type.Optional(Type.String({ maxLength: 2000, description: 'A sudo token of this session (POST /v1/user/sudo); required when the account has a password.' })),
    }),
    response: Empty,
    errors: {
      file_not_found: 'No device sign-in waits with that code: it is mistyped, expired, or answered already.',
      invalid_grant: 'Approving needs a live sudo token of this session: it is missing, expired, or of another session.',
      too_many_requests: 'Too many wrong codes: `details[0].retry_after_seconds` says when to try again.',
    },
    example: { user_code: 'BDWP-HQPK', approve: true, sudo_token: '…' },
  }),
};
