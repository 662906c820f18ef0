/** One run-time setting in the console's form: its label, its control by kind, and the server's value when changed here. */
import { useId } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { RunTimeSettingName } from '@haul/shared';
import type { FieldKind } from './setting-fields';

const labels = (t: TFunction): Record<RunTimeSettingName, string> => ({
  site_name: t('admin.settings.fields.siteName'),
  registration: t('admin.settings.fields.registration'),
  require_password: t('passwordNeeded.settingLabel'),
  default_storage_bytes: t('admin.settings.fields.defaultStorage'),
  trash_retention_days: t('admin.settings.fields.trashDays'),
  free_daily_cloud_downloads: t('admin.settings.fields.dailyTasks'),
  premium_daily_cloud_downloads: t('admin.settings.fields.premiumDailyTasks'),
  free_cloud_download_max_bytes: t('admin.settings.fields.taskSize'),
  free_monthly_upload_bytes: t('admin.settings.fields.monthlyUpload'),
  free_monthly_cloud_download_bytes: t('admin.settings.fields.monthlyCloud'),
  free_monthly_download_bytes: t('admin.settings.fields.monthlyDownload'),
  free_daily_download_bytes: t('admin.settings.fields.dailyDownload'),
  free_max_resolution: t('admin.settings.fields.maxResolution'),
  webdav_premium_only: t('admin.settings.fields.webdavPremium'),
  decompression_premium_only: t('admin.settings.fields.decompressPremium'),
  invite_reward_days: t('admin.settings.fields.inviteDays'),
  invite_max_rewards: t('admin.settings.fields.inviteMax'),
  trial_days: t('trial.settingLabel'),
});

/** Fields whose 0 lifts the limit, and say so. */
const ZERO_IS_NONE = new Set<RunTimeSettingName>([
  'free_cloud_download_max_bytes',
  'free_monthly_upload_bytes',
  'free_monthly_cloud_download_bytes',
  'free_monthly_download_bytes',
  'free_daily_download_bytes',
  'invite_max_rewards',
]);

interface Props {
  name: RunTimeSettingName;
  kind: FieldKind;
  value: string | boolean;
  envValue: string | boolean;
  changed: boolean;
  error?: string;
  resolutions: number[];
  onChange: (v: string | boolean) => void;
  onReset: () => void;
}

export function SettingField({ name, kind, value, envValue, changed, error, resolutions, onChange, onReset }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const label = labels(t)[name];
  const shown = (v: string | boolean) =>
    kind === 'switch'
      ? v
        ? t('admin.settings.yes')
        : t('admin.settings.no')
      : kind === 'registration'
        ? registrationWord(t, String(v))
        : kind === 'resolution'
          ? resolutionWord(t, Number(v))
          : kind === 'gb'
            ? `${String(v)} GB`
            : String(v);
  const hint = [ZERO_IS_NONE.has(name) ? t('admin.settings.zeroIsNone') : '', changed ? t('admin.settings.serverValue', { value: shown(envValue) }) : '']
    .filter(Boolean)
    .join(' ');
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  const control =
    kind === 'switch' ? (
      <input id={id} type="checkbox" checked={value as boolean} onChange={(e) => onChange(e.target.checked)} aria-describedby={described} />
    ) : kind === 'registration' || kind === 'resolution' ? (
      <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)} aria-describedby={described}>
        {(kind === 'registration' ? ['open', 'invite', 'closed'] : resolutions.map(String)).map((v) => (
          <option key={v} value={v}>
            {kind === 'registration' ? registrationWord(t, v) : resolutionWord(t, Number(v))}
          </option>
        ))}
      </select>
    ) : (
      <span className="admin-setting-input">
        <input
          id={id}
          value={value as string}
          inputMode={kind === 'gb' ? 'decimal' : kind === 'text' ? 'text' : 'numeric'}
          maxLength={kind === 'text' ? 60 : undefined}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(e) => onChange(e.target.value)}
        />
        {kind === 'gb' && <span className="muted">GB</span>}
      </span>
    );

  return (
    <div className={kind === 'switch' ? 'admin-setting' : 'field admin-setting'} data-setting={name}>
      {kind === 'switch' ? (
        <label className="check-field">
          {control}
          {label}
        </label>
      ) : (
        <>
          <label htmlFor={id}>{label}</label>
          {control}
        </>
      )}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}{' '}
          {changed && (
            <button type="button" className="link" onClick={onReset}>
              {t('admin.settings.useServerValue')}
            </button>
          )}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}

function registrationWord(t: TFunction, mode: string): string {
  return mode === 'open' ? t('admin.settings.registrationOpen') : mode === 'invite' ? t('admin.settings.registrationInvite') : t('admin.settings.registrationClosed');
}

function resolutionWord(t: TFunction, px: number): string {
  return px === 0 ? t('admin.settings.allQualities') : `${px}p`;
}
