/**
 * Run-time settings (`/admin/v1/settings`): what an operator changes without a restart. Each starts at the server's
 * environment (HAUL_*) and, once changed here, is kept in the database, so every process of the install uses it at
 * once; a null puts one back to its environment value.
 */
import { Type, type Static } from '@sinclair/typebox';
import { route } from './define.js';
import { StringEnum } from './schema-kit.js';

const tag = 'Administration';

export const REGISTRATION_MODES = ['open', 'invite', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

const Count = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000, description });
const Bytes = (description: string) => Type.Integer({ minimum: 0, maximum: 2 ** 53 - 1, description });

/** Every run-time setting and its value. */
export const RunTimeSettingsSchema = Type.Object({
  site_name: Type.String({ minLength: 1, maxLength: 60, pattern: '^\\S(.*\\S)?$', description: 'What the web app calls this install: in page titles and on its sign-in and welcome pages.' }),
  registration: StringEnum(REGISTRATION_MODES, { description: 'Who may create an account: anyone, only people with an invitation code, or no one.' }),
  require_password: Type.Boolean({ description: 'Accounts without a password of their own (made by a sign-in provider or a mailed code) are asked to set one (user info required_set_password).' }),
  default_storage_bytes: Bytes("A new account's own storage (plans add to it)."),
  trash_retention_days: Type.Integer({ minimum: 1, maximum: 3650, description: 'Days a trashed file is kept before it is deleted for good.' }),
  free_daily_cloud_downloads: Count('Cloud downloads a free account may add per 24 hours.'),
  premium_daily_cloud_downloads: Count('The same for premium accounts.'),
  free_cloud_download_max_bytes: Bytes("A free account's largest single cloud download; 0: only the space left limits it."),
  free_monthly_upload_bytes: Bytes('Bytes a free account may upload per month; 0: no limit.'),
  free_monthly_cloud_download_bytes: Bytes('Bytes a free account may fetch by cloud download per month; 0: no limit.'),
  free_monthly_download_bytes: Bytes("Bytes a free account may download through Haul's links per month; 0: no limit."),
  free_daily_download_bytes: Bytes('The same per day; 0: no limit.'),
  free_max_resolution: Type.Integer({ minimum: 0, maximum: 4320, description: 'Tallest video rendition (shorter side, px) free accounts play; 0: all.' }),
  webdav_premium_only: Type.Boolean({ description: 'WebDAV only for premium accounts.' }),
  decompression_premium_only: Type.Boolean({ description: 'Cloud decompression only for premium accounts.' }),
  invite_reward_days: Count('Premium days the inviter and the invited each get for an invitation; 0: none.'),
  invite_max_rewards: Count('Rewarded invitations per inviter per month; 0: no cap.'),
  trial_days: Type.Integer({ minimum: 0, maximum: 365, description: 'Premium days a new account gets once (an address that had a trial gets none again); 0: no trial.' }),
});
export type RunTimeSettings = Static<typeof RunTimeSettingsSchema>;
export type RunTimeSettingName = keyof RunTimeSettings;

const SettingsAnswer = Type.Object({
  settings: RunTimeSettingsSchema,
  defaults: Type.Object(RunTimeSettingsSchema.properties, { description: "The environment's values, which a null gives back." }),
  changed: Type.Array(Type.String(), { description: 'The settings changed here (the others follow the environment).' }),
});

const nullable = <T extends Record<string, import('@sinclair/typebox').TSchema>>(props: T) =>
  Type.Partial(Type.Object(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, Type.Union([s, Type.Null()])])) as { [K in keyof T]: import('@sinclair/typebox').TUnion<[T[K], import('@sinclair/typebox').TNull]> }), {
    additionalProperties: false,
  });

export const adminSettingsRoutes = {
  adminGetSettings: route({
    method: 'GET',
    path: '/admin/v1/settings',
    tag,
    summary: 'Run-time settings',
    description: "Registration, the new account's storage, the free plan's limits, what only premium may use, trash retention and invitation rewards: each one's value, the environment's value, and which were changed here.",
    auth: 'admin',
    response: SettingsAnswer,
    errors: {},
  }),
  adminUpdateSettings: route({
    method: 'PATCH',
    path: '/admin/v1/settings',
    tag,
    summary: 'Change run-time settings',
    description: 'Changes the settings given and leaves the others; null puts one back to its environment value. Every process uses the new values from its next request on.',
    auth: 'admin',
    body: nullable(RunTimeSettingsSchema.properties),
    response: SettingsAnswer,
    errors: { invalid_argument: 'An unknown setting, or a value out of its range.' },
    example: { site_name: 'Family drive', registration: 'invite', default_storage_bytes: 10737418240 },
  }),
};
