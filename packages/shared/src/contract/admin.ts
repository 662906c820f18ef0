/**
 * The operator's console (`/admin/v1/…`): accounts, shares held, blocked words, the system and the audit log. Only an administrator's own session may call
 * these (auth `admin`: not an app's token, not an app password); the server checks the role on every call.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { DecimalString, Empty, NullableObject, StringEnum, TimeString } from './schema-kit.js';

const tag = 'Administration';

/** What can be recorded in the audit log. */
export const AUDIT_ACTIONS = [
  'sign_in.new_network',
  'password.changed',
  'email.changed',
  'phone.changed',
  'two_factor.enabled',
  'two_factor.disabled',
  'passkey.added',
  'passkey.removed',
  'sign_in.passkey',
  'app_password.created',
  'app_password.revoked',
  'app.allowed',
  'sessions.ended',
  'account.deletion_requested',
  'admin.user.updated',
  'admin.user.signed_out',
  'admin.user.created',
  'admin.user.password_reset_sent',
  'admin.user.granted',
  'admin.user.deleted',
  'admin.share.moderated',
  'admin.blocked_words.changed',
  'admin.settings.changed',
  'admin.product.saved',
  'admin.product.retired',
  'admin.order.refunded',
  'admin.codes.created',
  'admin.code.revoked',
  'admin.feedback.answered',
  'admin.feedback.closed',
  'admin.feedback.reopened',
  'admin.job.retried',
  'admin.report.handled',
  'admin.report.viewed',
  'admin.report.from_feedback',
  'admin.file.marked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AuditEventSchema = Type.Object({
  id: Type.String(),
  time: TimeString(),
  action: StringEnum(AUDIT_ACTIONS),
  user_id: Type.String({ description: 'The account it happened to.' }),
  user_email: Type.String({ description: "That account's address ('' once the account is gone)." }),
  actor_id: Type.String({ description: "Who did it: the account itself, an operator's account, or '' for the server itself (haul-admin, a job)." }),
  actor_email: Type.String({ description: "The actor's address when the actor is an operator ('' otherwise)." }),
  ip: Type.String({ description: "The network it came from ('' when none)." }),
  details: Type.Record(Type.String(), Type.Unknown(), { description: 'What changed (field → value, or from/to); never a secret.' }),
});

export const AuditListSchema = Type.Object({ events: Type.Array(AuditEventSchema), next_page_token: Type.String() });

export const AdminUserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  phone_number: Type.String({ description: "E.164, or '' when none." }),
  is_admin: Type.Boolean(),
  disabled: Type.Boolean(),
  created_time: TimeString(),
  storage_limit: DecimalString('Bytes: the account\'s own limit (plans may add to it).'),
  storage_usage: DecimalString('Bytes its files take, trash included.'),
  premium_expire_time: TimeString("When its premium ends ('' when it has none)."),
});

const AdminUserDetailSchema = Type.Object({
  user: AdminUserSchema,
  usage: Type.Object({
    files: DecimalString(),
    shares: DecimalString('Live share links.'),
    tasks_running: DecimalString('Cloud downloads and unpacking waiting or running.'),
    sessions: DecimalString('Signed-in devices.'),
    transfer_month: Type.Object({ upload: DecimalString(), cloud_download: DecimalString(), download: DecimalString() }, { description: 'Bytes moved this month, in the server\'s time zone.' }),
  }),
});

/** A share as the operator sees it: what it is, whose, how it is held and how much it was used. */
export const AdminShareSchema = Type.Object({
  share_id: Type.String(),
  title: Type.String(),
  user_id: Type.String({ description: 'The owner.' }),
  user_email: Type.String({ description: "The owner's address ('' once the account is gone)." }),
  share_to: Type.String({ description: 'publiclink or encryptedlink.' }),
  status: Type.String({ description: 'OK, EXPIRED, or what an operator holds it to: AUDITING, PROHIBITED, SENSITIVE_RESOURCE.' }),
  reason: Type.String({ description: "Why an operator holds it ('' when it is not held)." }),
  restore_limit: DecimalString('Saves allowed, 0 for no limit.'),
  restore_count: DecimalString('Times visitors saved it.'),
  view_count: DecimalString(),
  file_count: DecimalString('Items shared (a folder counts once).'),
  file_size: DecimalString('Bytes of the shared files, folders with what they held when shared.'),
  created_time: TimeString(),
  expiration_at: TimeString("When the link stops working ('' when it never does)."),
});

/** The last backup `haul-admin backup DIR` made, as the database records it. */
const LastBackupSchema = Type.Object({
  taken_at: TimeString('The moment the backup stands for (the database snapshot).'),
  finished_at: TimeString(),
  bytes: DecimalString('Database and copied blobs together (blobs left in a bucket are not counted).'),
  database_bytes: DecimalString(),
  blob_count: DecimalString('Blobs the snapshot refers to.'),
  blob_bytes: DecimalString(),
  blob_store: StringEnum(['local', 's3'] as const),
  complete: Type.Boolean({ description: 'Every blob the snapshot refers to is in the backup (or, for a bucket, listed).' }),
});

const UserIdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const Page = { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })), page_token: Type.Optional(Type.String({ maxLength: 2000 })) };

export const adminRoutes = {
  adminListUsers: route({
    method: 'GET',
    path: '/admin/v1/users',
    tag,
    summary: 'Accounts',
    description: 'Accounts newest first, or those whose e-mail address starts with `q` in address order; page by page either way (an index read, never a scan).',
    auth: 'admin',
    query: Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })), ...Page }),
    response: Type.Object({ users: Type.Array(AdminUserSchema), next_page_token: Type.String() }),
    errors: {},
  }),
  adminGetUser: route({
    method: 'GET',
    path: '/admin/v1/users/:id',
    tag,
    summary: 'One account and what it uses',
    description: 'The account and what it uses: files, shares, running tasks, signed-in devices and this month\'s transfer. Metadata only: the console never reads file contents.',
    auth: 'admin',
    params: UserIdParams,
    response: AdminUserDetailSchema,
    errors: { file_not_found: 'No account has that id.' },
  }),
  adminUpdateUser: route({
    method: 'PATCH',
    path: '/admin/v1/users/:id',
    tag,
    summary: 'Change an account',
    description:
      'Disables or enables an account (a disabled one is signed out everywhere at once, its links stop), makes it an operator or not, or sets its storage limit. Recorded in the audit log with what changed. An operator cannot disable or demote their own account.',
    auth: 'admin',
    params: UserIdParams,
    body: Type.Object({
      disabled: Type.Optional(Type.Boolean()),
      is_admin: Type.Optional(Type.Boolean()),
      storage_limit: Type.Optional(DecimalString('Bytes, 0 or more.')),
    }),
    response: AdminUserSchema,
    errors: { file_not_found: 'No account has that id.', invalid_argument: 'Nothing to change, a limit that is not a size, or the operator\'s own account disabled or demoted.' },
    example: { storage_limit: '107374182400' },
  }),
  adminSignOutUser: route({
    method: 'DELETE',
    path: '/admin/v1/users/:id/sessions',
    tag,
    summary: 'Sign an account out everywhere',
    description: 'Ends every session of the account and the download links it made. Recorded in the audit log.',
    auth: 'admin',
    params: UserIdParams,
    response: Empty,
    errors: { file_not_found: 'No account has that id.' },
  }),
  adminListAudit: route({
    method: 'GET',
    path: '/admin/v1/audit',
    tag,
    summary: 'The audit log',
    description: 'What operators did and the security events of every account, newest first; filtered by account and by action.',
    auth: 'admin',
    query: Type.Object({ user_id: Type.Optional(Type.String({ maxLength: 100 })), action: Type.Optional(StringEnum(AUDIT_ACTIONS)), ...Page }),
    response: AuditListSchema,
    errors: {},
  }),
  adminModerateShare: route({
    method: 'PATCH',
    path: '/admin/v1/shares/:id',
    tag,
    summary: 'Hold or release a share',
    description:
      "Puts a share under review (AUDITING), takes it down (PROHIBITED) or marks its content as not shareable (SENSITIVE_RESOURCE), with a reason its owner reads in their share list; OK gives it back. Visitors get the status at their next request, download links included. An operator may also set its save limit. Recorded in the owner's audit log.",
    auth: 'admin',
    params: Type.Object({ id: Type.String({ maxLength: 40 }) }),
    body: Type.Object({
      status: Type.Optional(StringEnum(['OK', 'AUDITING', 'PROHIBITED', 'SENSITIVE_RESOURCE'] as const)),
      reason: Type.Optional(Type.String({ maxLength: 500, description: 'Why, in words the owner reads.' })),
      restore_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Saves allowed, 0 for no limit.' })),
    }),
    response: Type.Object({ share_id: Type.String(), status: Type.String(), reason: Type.String(), restore_limit: DecimalString(), user_id: Type.String() }),
    errors: { share_not_found: 'No share has that id (or it was cancelled).', invalid_argument: 'Nothing to change.' },
    example: { status: 'PROHIBITED', reason: 'Reported: holds copyrighted films.' },
  }),
  adminGetBlockedWords: route({
    method: 'GET',
    path: '/admin/v1/blocked-words',
    tag,
    summary: 'Blocked words',
    description: "Words a share's title or phrase may not hold (compared without case, anywhere in the text): such a share is refused with share_status SENSITIVE_WORD.",
    auth: 'admin',
    response: Type.Object({ words: Type.Array(Type.String()) }),
    errors: {},
  }),
  adminSetBlockedWords: route({
    method: 'PUT',
    path: '/admin/v1/blocked-words',
    tag,
    summary: 'Set the blocked words',
    description: 'Replaces the list (each word trimmed, in lower case, once). Shares made before keep their titles; the words hold for new shares and changes.',
    auth: 'admin',
    body: Type.Object({ words: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000 }) }),
    response: Type.Object({ words: Type.Array(Type.String()) }),
    errors: { invalid_argument: 'A word is longer than 64 characters.' },
    example: { words: ['casino'] },
  }),
  adminTopShares: route({
    method: 'GET',
    path: '/admin/v1/shares',
    tag,
    summary: 'Most viewed or saved shares',
    description: 'The live shares visitors opened (order views) or saved to their drives (order saves) most, most first; shares never opened or saved are left out.',
    auth: 'admin',
    query: Type.Object({ order: StringEnum(['views', 'saves'] as const), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }),
    response: Type.Object({ shares: Type.Array(AdminShareSchema) }),
    errors: {},
  }),
  adminGetShare: route({
    method: 'GET',
    path: '/admin/v1/shares/:id',
    tag,
    summary: 'One share',
    description: "A share by its id (the last part of its link): title, owner, how an operator holds it and why, its save limit and what visitors did with it. Metadata only: never the pass code or the files' contents.",
    auth: 'admin',
    params: Type.Object({ id: Type.String({ maxLength: 40 }) }),
    response: AdminShareSchema,
    errors: { share_not_found: 'No share has that id (or it was cancelled).' },
  }),
  adminSystem: route({
    method: 'GET',
    path: '/admin/v1/system',
    tag,
    summary: 'The system',
    description: "The Haul version, the database and blob store in use, and the last backup (`haul-admin backup DIR`): when it was taken, its size and whether it holds every blob; null before the first.",
    auth: 'admin',
    response: Type.Object({
      version: Type.String({ description: "The server's version ('' when unknown)." }),
      database: StringEnum(['sqlite', 'postgres'] as const),
      blob_store: StringEnum(['local', 's3'] as const),
      last_backup: NullableObject(LastBackupSchema),
    }),
    errors: {},
  }),
  listAccountAudit: route({
    method: 'GET',
    path: '/v1/user/audit',
    tag: 'Accounts',
    summary: "The account's security events",
    description: 'Sign-ins from new networks, password, address and phone changes, two-factor, app passwords and apps allowed, and what an operator changed, newest first.',
    auth: 'user',
    query: Type.Object(Page),
    response: AuditListSchema,
    errors: {},
  }),
};


