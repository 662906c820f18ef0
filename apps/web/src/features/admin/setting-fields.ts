/**
 * How each run-time setting is shown and typed in the console: the site's name as text, sizes in GB, counts and days
 * as whole numbers, the registration as a choice, premium gates as switches. Parsing answers the value to send or a key of the words that
 * say what is wrong.
 */
import type { RunTimeSettingName, RunTimeSettings } from '@haul/shared';
import { gbValue, parseGb } from './storage-size';

/** `retention`: days, at least one; `days`: days, zero allowed (none); `trial`: days of a trial, at most a year. */
export type FieldKind = 'text' | 'trial' | 'registration' | 'gb' | 'count' | 'days' | 'retention' | 'resolution' | 'switch';

/** The console's groups of settings, in order, each setting with how it is typed. */
export const SETTING_GROUPS: { key: string; fields: [RunTimeSettingName, FieldKind][] }[] = [
  {
    key: 'accounts',
    fields: [['site_name', 'text'], ['registration', 'registration'], ['require_password', 'switch'], ['default_storage_bytes', 'gb'], ['trash_retention_days', 'retention']],
  },
  {
    key: 'free',
    fields: [
      ['free_daily_cloud_downloads', 'count'],
      ['free_cloud_download_max_bytes', 'gb'],
      ['free_monthly_upload_bytes', 'gb'],
      ['free_monthly_cloud_download_bytes', 'gb'],
      ['free_monthly_download_bytes', 'gb'],
      ['free_daily_download_bytes', 'gb'],
      ['free_max_resolution', 'resolution'],
    ],
  },
  {
    key: 'premium',
    fields: [['premium_daily_cloud_downloads', 'count'], ['webdav_premium_only', 'switch'], ['decompression_premium_only', 'switch'], ['trial_days', 'trial']],
  },
  { key: 'invitations', fields: [['invite_reward_days', 'days'], ['invite_max_rewards', 'count']] },
];

/** The server's limit on a site name (the contract's maxLength). */
const SITE_NAME_MAX = 60;

export const RESOLUTIONS = [0, 480, 720, 1080, 1440, 2160];

/** A setting's value as the form holds it. */
export function toText(kind: FieldKind, value: RunTimeSettings[RunTimeSettingName]): string | boolean {
  if (kind === 'switch') return value as boolean;
  if (kind === 'gb') return gbValue(value as number);
  return String(value);
}

/** What the form holds, as the value to send, or why it cannot be. */
export function fromText(kind: FieldKind, text: string | boolean): { value: RunTimeSettings[RunTimeSettingName] } | { error: 'invalid' | 'tooBig' | 'empty' } {
  if (kind === 'switch') return { value: text as boolean };
  const s = String(text).trim();
  if (kind === 'text') return !s ? { error: 'empty' } : s.length > SITE_NAME_MAX ? { error: 'tooBig' } : { value: s };
  if (kind === 'registration') return { value: s as RunTimeSettings['registration'] };
  if (kind === 'gb') {
    const parsed = parseGb(s);
    return 'error' in parsed ? parsed : { value: parsed.bytes };
  }
  if (!/^\d+$/.test(s)) return { error: 'invalid' };
  const n = Number(s);
  if (kind === 'retention' && n < 1) return { error: 'invalid' };
  if ((kind === 'days' || kind === 'retention') && n > 3650) return { error: 'tooBig' };
  if (kind === 'trial' && n > 365) return { error: 'tooBig' };
  if (n > 1_000_000) return { error: 'tooBig' };
  return { value: n };
}
