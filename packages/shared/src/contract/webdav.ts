/**
 * WebDAV: the drive at /dav/ for file managers, rclone and apps, which sign in with the account's e-mail address and
 * an app password: one per device, made here, shown once, revocable. The WebDAV methods themselves are not JSON
 * calls and are described in docs/decisions/webdav.md, not here.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { Empty, TimeString } from './schema-kit.js';

const tag = 'WebDAV';

export const AppPasswordSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'What the person called it, e.g. "Laptop Finder".' }),
  created_time: TimeString(),
  last_used_time: TimeString('When a WebDAV request last signed in with it; empty when never.'),
});

export const webdavRoutes = {
  listAppPasswords: route({
    method: 'GET',
    path: '/v1/user/app_passwords',
    tag,
    summary: 'WebDAV address and app passwords',
    description:
      'The address to give a WebDAV client, the user name to sign in with (the account\'s e-mail address), whether this account may use WebDAV now (an operator may keep it for premium accounts), and the app passwords, newest first. Passwords themselves are never answered again after they are made.',
    auth: 'user',
    response: Type.Object({
      url: Type.String({ description: 'The WebDAV address: the server\'s public address followed by /dav/.' }),
      username: Type.String({ description: 'The user name WebDAV clients sign in with.' }),
      available: Type.Boolean({ description: 'False when WebDAV is kept for premium accounts and this one is not.' }),
      premium_only: Type.Boolean(),
      app_passwords: Type.Array(AppPasswordSchema),
    }),
    errors: {},
  }),
  createAppPassword: route({
    method: 'POST',
    path: '/v1/user/app_passwords',
    tag,
    summary: 'Make an app password',
    description:
      'Makes an app password for one device or app; `password` is in this answer only (it is stored as a hash). It works for WebDAV until revoked, and ends with sign-out everywhere, a password change, the account\'s deletion, or when the session that made it is ended from another device. Making one takes a `sudo_token` when the account has a password. The sign-in password itself never works for WebDAV.',
    auth: 'user',
    body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), sudo_token: Type.Optional(Type.String({ maxLength: 2000, description: 'A sudo token of this session (POST /v1/user/sudo); required when the account has a password.' })) }),
    response: Type.Object({ app_password: AppPasswordSchema, password: Type.String({ description: 'Shown once: seven groups of four letters and digits.' }) }),
    errors: {
      invalid_argument: 'The name is empty, too long or has control characters, or the account has 50 app passwords already.',
      invalid_grant: 'A live sudo token of this session is needed: it is missing, expired, or of another session.',
    },
    example: { name: 'Laptop Finder', sudo_token: '…' },
  }),
  revokeAppPassword: route({
    method: 'DELETE',
    path: '/v1/user/app_passwords/:id',
    tag,
    summary: 'Revoke an app password',
    description: 'The app password stops working at once; WebDAV clients using it are asked to sign in again.',
    auth: 'user',
    params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
    response: Empty,
    errors: { file_not_found: 'No app password of this account has that id (it may be revoked already).' },
  }),
};
