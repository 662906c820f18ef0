/**
 * Setup's second step, as the new operator: the site's name, who may sign up, a new account's storage, a test
 * message, and a starter catalogue when a payment provider (or the sandbox) is configured. "Finish" saves what was chosen and opens the drive.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { RegistrationMode } from '@haul/shared';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { paySettings } from '../plans/plans-api';
import { getSettings, updateSettings } from '../admin/admin-api';
import { gbValue, parseGb } from '../admin/storage-size';
import { SITE_KEY } from '../site/site-name';
import { saveProduct, sendTestMail } from './setup-api';
import { starterCatalogue, type StarterItem } from './starter-catalogue';

function TestMail() {
  const { t } = useTranslation();
  const [result, setResult] = useState('');
  const { busy, error, submit } = useSubmit();
  const send = () =>
    submit(async () => {
      const sent = await sendTestMail();
      setResult(sent.via === 'smtp' ? t('setup.mailSent', { to: sent.to }) : t('setup.mailOutbox', { to: sent.to }));
    }, errorMessage);
  return (
    <div className="setup-mail">
      <button type="button" className="btn" onClick={() => void send()} disabled={busy}>
        {t('setup.sendTestMail')}
      </button>
      {result && (
        <p className="muted" role="status">
          {result}
        </p>
      )}
      <FormError error={error} />
    </div>
  );
}

function Catalogue({ items, currency, onItems, onCurrency }: { items: StarterItem[]; currency: string; onItems: (i: StarterItem[]) => void; onCurrency: (c: string) => void }) {
  const { t } = useTranslation();
  const set = (id: string, change: Partial<StarterItem>) => onItems(items.map((i) => (i.id === id ? { ...i, ...change } : i)));
  return (
    <fieldset className="admin-card setup-catalogue">
      <legend>{t('setup.catalogueTitle')}</legend>
      <p className="muted">{t('setup.catalogueIntro')}</p>
      <TextField label={t('setup.currency')} value={currency} maxLength={3} onChange={(e) => onCurrency(e.target.value.toUpperCase())} autoComplete="off" />
      {items.map((i) => (
        <div key={i.id} className="setup-product">
          <label className="check-field">
            <input type="checkbox" checked={i.on} onChange={(e) => set(i.id, { on: e.target.checked })} />
            {i.title}
          </label>
          <TextField label={t('setup.price', { title: i.title })} value={i.price} inputMode="decimal" disabled={!i.on} onChange={(e) => set(i.id, { price: e.target.value })} />
        </div>
      ))}
    </fieldset>
  );
}

export function SetupChoices() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['setup', 'settings'], queryFn: () => getSettings() });
  const pay = useQuery({ queryKey: ['pay-settings'], queryFn: paySettings, staleTime: 60_000 });
  const [siteName, setSiteName] = useState<string | null>(null);
  const [nameError, setNameError] = useState('');
  const [registration, setRegistration] = useState<RegistrationMode | null>(null);
  const [storage, setStorage] = useState<string | null>(null);
  const [items, setItems] = useState(() => starterCatalogue(t));
  const [currency, setCurrency] = useState('USD');
  const [storageError, setStorageError] = useState('');
  const { busy, error, submit } = useSubmit();
  const selling = !!pay.data?.providers.length;
  const current = settings.data?.settings;

  const finish = async (e: FormEvent) => {
    e.preventDefault();
    if (!current) return;
    const parsed = parseGb(storage ?? gbValue(current.default_storage_bytes));
    if ('error' in parsed) return setStorageError(t('admin.settings.invalid'));
    const name = (siteName ?? current.site_name).trim();
    if (!name) return setNameError(t('admin.settings.nameEmpty'));
    await submit(async () => {
      await updateSettings({ site_name: name, registration: registration ?? current.registration, default_storage_bytes: parsed.bytes });
      await queryClient.invalidateQueries({ queryKey: SITE_KEY });
      if (selling) for (const i of items.filter((x) => x.on)) await saveProduct({ id: i.id, title: i.title, grant: i.grant, price: i.price, currency, interval: i.interval });
      toast.success(t('setup.ready'));
      await navigate('/all', { replace: true });
    }, errorMessage);
  };

  return (
    <main className="login">
      <form className="login-card setup-card setup-wide" onSubmit={finish} noValidate aria-labelledby="setup-choices-title">
        <h1 id="setup-choices-title">{t('setup.choicesTitle')}</h1>
        <p className="login-notice">{t('setup.choicesIntro')}</p>
        {settings.isError && <FormError error={errorMessage(settings.error)} />}
        {current && (
          <>
            <TextField
              label={t('admin.settings.fields.siteName')}
              value={siteName ?? current.site_name}
              maxLength={60}
              error={nameError}
              onChange={(e) => {
                setSiteName(e.target.value);
                setNameError('');
              }}
            />
            <div className="field">
              <label htmlFor="setup-registration">{t('admin.settings.fields.registration')}</label>
              <select id="setup-registration" value={registration ?? current.registration} onChange={(e) => setRegistration(e.target.value as RegistrationMode)}>
                <option value="open">{t('admin.settings.registrationOpen')}</option>
                <option value="invite">{t('admin.settings.registrationInvite')}</option>
                <option value="closed">{t('admin.settings.registrationClosed')}</option>
              </select>
            </div>
            <TextField
              label={t('setup.storage')}
              value={storage ?? gbValue(current.default_storage_bytes)}
              inputMode="decimal"
              error={storageError}
              onChange={(e) => {
                setStorage(e.target.value);
                setStorageError('');
              }}
            />
            <TestMail />
            {selling ? <Catalogue items={items} currency={currency} onItems={setItems} onCurrency={setCurrency} /> : <p className="muted">{t('setup.noPayments')}</p>}
          </>
        )}
        <FormError error={error} />
        <button className="btn primary wide" type="submit" disabled={busy || !current}>
          {t('setup.finish')}
        </button>
      </form>
    </main>
  );
}
