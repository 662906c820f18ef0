/**
 * Settings (/admin/settings): what the operator changes without a restart: who may sign up, a new account's storage,
 * the free plan's limits, what only premium may use, trash retention and invitation rewards. Each field says the
 * environment's value when it differs; "Use the server's value" gives a changed one back. Saving sends only what
 * changed, and every process of the install follows from its next request.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { RunTimeSettingName } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { getSettings, SETTINGS_KEY, updateSettings, type RunTimeSettingsAnswer } from './admin-api';
import { fromText, RESOLUTIONS, SETTING_GROUPS, toText, type FieldKind } from './setting-fields';
import { SettingField } from './setting-field';

type Draft = Partial<Record<RunTimeSettingName, string | boolean>>;
const KINDS = new Map(SETTING_GROUPS.flatMap((g) => g.fields));

const draftOf = (a: RunTimeSettingsAnswer): Draft =>
  Object.fromEntries([...KINDS].map(([n, kind]) => [n, toText(kind, a.settings[n])]));

function SettingsForm({ answer }: { answer: RunTimeSettingsAnswer }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(answer));
  const [errors, setErrors] = useState<Partial<Record<RunTimeSettingName, string>>>({});
  const { busy, error, submit } = useSubmit();
  useEffect(() => setDraft(draftOf(answer)), [answer]);

  const send = (change: Parameters<typeof updateSettings>[0]) =>
    submit(async () => {
      const now = await updateSettings(change);
      queryClient.setQueryData(SETTINGS_KEY, now);
      toast.success(t('admin.settings.saved'));
    }, errorMessage);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const change: Record<string, unknown> = {};
    const wrong: typeof errors = {};
    for (const [n, kind] of KINDS) {
      const parsed = fromText(kind, draft[n] ?? '');
      if ('error' in parsed) wrong[n] = parsed.error === 'tooBig' ? t('admin.settings.tooBig') : parsed.error === 'empty' ? t('admin.settings.nameEmpty') : t('admin.settings.invalid');
      else if (parsed.value !== answer.settings[n]) change[n] = parsed.value;
    }
    setErrors(wrong);
    if (Object.keys(wrong).length) return;
    if (!Object.keys(change).length) return toast(t('admin.settings.nothing'));
    await send(change);
  };

  return (
    <form className="admin-settings" onSubmit={save} noValidate>
      {SETTING_GROUPS.map((g) => (
        <fieldset key={g.key} className="admin-card">
          <legend>{t(`admin.settings.groups.${g.key}`)}</legend>
          {g.fields.map(([n, kind]: [RunTimeSettingName, FieldKind]) => (
            <SettingField
              key={n}
              name={n}
              kind={kind}
              value={draft[n] ?? ''}
              error={errors[n]}
              envValue={toText(kind, answer.defaults[n])}
              changed={answer.changed.includes(n)}
              resolutions={RESOLUTIONS}
              onChange={(v) => {
                setDraft((d) => ({ ...d, [n]: v }));
                setErrors((x) => ({ ...x, [n]: undefined }));
              }}
              onReset={() => void send({ [n]: null })}
            />
          ))}
        </fieldset>
      ))}
      <FormError error={error} />
      <div className="dialog-actions">
        <button className="btn primary" type="submit" disabled={busy}>
          {t('admin.settings.save')}
        </button>
      </div>
    </form>
  );
}

export function AdminSettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => getSettings(signal), meta: { quiet: true } });
  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('admin.tabs.settings')}</h1>
      </div>
      <p className="admin-note">{t('admin.settings.intro')}</p>
      {settings.isPending && <p className="muted">{t('common.loading')}</p>}
      {settings.isError && <FormError error={errorMessage(settings.error)} />}
      {settings.data && <SettingsForm answer={settings.data} />}
    </section>
  );
}
