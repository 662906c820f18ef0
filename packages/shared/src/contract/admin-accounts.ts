/**
 * The operator's account work beyond changing one (`/admin/v1/users…`): making an account, mailing its owner a
 * password-reset code, granting it a plan and deleting it. Each is recorded in the audit log.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { AdminUserSchema } from './admin.js';
import { VipInfoSchema } from './plans.js';
import { Empty } from './schema-kit.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../rules/validate.js';

const tag = 'Administration';
const UserIdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const adminAccountsRoutes = {
  adminCreateUser: route({
    method: 'POST',
    path: '/admin/v1/users',
    tag,
    summary: 'Create an account',
    description:
      "Makes an account with the sign-up rules (a valid address no account has, a password of the usual length, a name of at most 100 characters), whatever the registration setting; an operator's when `is_admin`. Nobody is signed in. Recorded in the audit log.",
    auth: 'admin',
    body: Type.Object({
      email: Type.String({ maxLength: 254, description: 'The address the person signs in with.' }),
      password: Type.String({ maxLength: 1024, description: `The first password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.` }),
      name: Type.Optional(Type.String({ maxLength: 200, description: 'The display name (the part of the address before the @ when left out).' })),
      is_admin: Type.Optional(Type.Boolean({ description: "An operator's account." })),
    }),
    response: AdminUserSchema,
    errors: {
      invalid_argument: 'The address is not valid, the password is too short or too long, or the name is too long.',
      already_exists: 'An account with this address exists.',
    },
    example: { email: 'ada@example.com', password: 'correct horse battery staple', name: 'Ada' },
  }),
  adminResetPassword: route({
    method: 'POST',
    path: '/admin/v1/users/:id/password-reset',
    tag,
    summary: "Mail an account's owner a password-reset code",
    description:
      'Sends the code "Forgot password" sends (usage PASSWORD_RESET) to the account\'s address; the person sets the new password with it. The operator never sees the code or the password. Recorded in the audit log.',
    auth: 'admin',
    params: UserIdParams,
    response: Type.Object({ email: Type.String({ description: 'Where the code went.' }) }),
    errors: {
      file_not_found: 'No account has that id.',
      failed_precondition: 'The account is disabled, or has no e-mail address to send the code to.',
      too_many_requests: 'Too many codes were sent to this address or from this network lately: `details[0].retry_after_seconds` says when to try again.',
    },
  }),
  adminListGrants: route({
    method: 'GET',
    path: '/admin/v1/users/:id/grants',
    tag,
    summary: "An account's premium and grants",
    description: 'Whether the account is premium and until when, and the grants that count now or later, newest first.',
    auth: 'admin',
    params: UserIdParams,
    response: VipInfoSchema,
    errors: { file_not_found: 'No account has that id.' },
  }),
  adminGrant: route({
    method: 'POST',
    path: '/admin/v1/users/:id/grants',
    tag,
    summary: 'Grant an account a plan',
    description:
      'Grants what a product or a redeem code would, written the same way: `premium:30d` (added to the premium left), `storage:100GB` (for good) or `storage:100GB/365d`, `transfer:50GB` (30 days) or `transfer:50GB/7d`, several joined by commas. Answers the account\'s premium and grants as they now are. Recorded in the audit log.',
    auth: 'admin',
    params: UserIdParams,
    body: Type.Object({ grant: Type.String({ minLength: 1, maxLength: 200, description: 'The grant spec, like premium:30d.' }) }),
    response: VipInfoSchema,
    errors: { file_not_found: 'No account has that id.', invalid_argument: 'The spec is not a grant (the message says which part and why).' },
    example: { grant: 'premium:30d' },
  }),
  adminDeleteUser: route({
    method: 'DELETE',
    path: '/admin/v1/users/:id',
    tag,
    summary: 'Delete an account',
    description:
      "Deletes the account as its owner's own deletion does: at once it can no longer sign in, its sessions, links and shares end and its address is free; its files, shares and tasks are erased in the background. Not the operator's own account (they delete it from their account page), nor the last operator. Recorded in the audit log, which keeps this event.",
    auth: 'admin',
    params: UserIdParams,
    response: Empty,
    errors: {
      file_not_found: 'No account has that id.',
      invalid_argument: "The operator's own account.",
      failed_precondition: 'The account is the last enabled operator (`details[0].reason` is LAST_ADMINISTRATOR).',
    },
  }),
};
