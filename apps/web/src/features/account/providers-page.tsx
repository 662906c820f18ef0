/**
 * Sign-in providers (/account/providers): each provider the server offers, connected or not. Connecting goes through
 * the provider's own sign-in page and back; an account with a password confirms it first (a sudo token, carried
 * across the round trip), because a connected provider is a lasting way into the account. The last way into an
 * account without a password cannot be disconnected: the server refuses, and the page says why.
 */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { goToProvider, listLinkedProviders, listSignInProviders, unbindProvider } from '../providers/providers-api';
import { useSudo } from './use-sudo';
import { CurrentPasswordField } from './current-password-field';

export function ProvidersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const offered = useQuery({ queryKey: ['signInProviders'], queryFn: listSignInProviders, staleTime: 5 * 60_000 });
  const linked = useQuery({ queryKey: ['linkedProviders'], queryFn: listLinkedProviders, staleTime: 0 });
  const sudo = useSudo();
  // The provider waiting for the password before the round trip.
  const [confirming, setConfirming] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const connect = async (providerId: string, sudoToken?: string) => {
    setBusy(true);
    try {
      await goToProvider(providerId, 'bind', { sudoToken });
    } catch (err) {
      setErrors({ form: errorMessage(err) });
      setBusy(false);
    }
  };

  // Only once the account's connections are known: whether it has a password decides if the password comes first.
  const start = (providerId: string) => {
    setErrors({});
    if (linked.data?.has_password) setConfirming(providerId);
    else void connect(providerId);
  };

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (!confirming) return;
    if (!password) return setErrors({ password: t('account.enterCurrent') });
    setBusy(true);
    let token: string;
    try {
      token = await sudo.token(password);
    } catch (err) {
      setBusy(false);
      if (isPasswordRefusal(err)) return setErrors({ password: errorMessage(err) });
      return setErrors({ form: errorMessage(err) });
    }
    await connect(confirming, token);
  };

  const disconnect = async (providerId: string, name: string) => {
    setErrors({});
    setBusy(true);
    try {
      await unbindProvider(providerId);
      toast.success(t('providers.disconnectedToast', { name }));
      await queryClient.invalidateQueries({ queryKey: ['linkedProviders'] });
    } catch (err) {
      setErrors({ form: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  const providers = offered.data?.providers ?? [];
  const links = linked.data?.providers ?? [];
  // Connections to providers the server no longer offers still show, so they can be disconnected.
  const rows = [...providers.map((p) => ({ id: p.id, name: p.name })), ...links.filter((l) => !providers.some((p) => p.id === l.provider_id)).map((l) => ({ id: l.provider_id, name: l.name }))];

  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="providers-title" className="crumb current">
          {t('providers.pageTitle')}
        </h1>
      </div>
      <div className="account-form">
        <p className="account-notice">{t('providers.intro')}</p>
        {linked.data && !linked.data.has_password && <p className="account-notice">{t('providers.noPassword')}</p>}
        {offered.isSuccess && rows.length === 0 && <p className="account-notice">{t('providers.none')}</p>}
        <ul className="provider-list" aria-labelledby="providers-title">
          {rows.map((p) => {
            const link = links.find((l) => l.provider_id === p.id);
            return (
              <li key={p.id} className="provider-row">
                <div>
                  <strong>{p.name}</strong>
                  <div className="account-notice">
                    {!linked.isSuccess ? t('common.loading') : link ? t('providers.connectedAs', { email: link.email || '-' }) : t('providers.notConnected')}
                  </div>
                </div>
                {link ? (
                  <button type="button" className="btn" disabled={busy} onClick={() => void disconnect(p.id, p.name)} aria-label={t('providers.disconnectName', { name: p.name })}>
                    {t('providers.disconnect')}
                  </button>
                ) : (
                  <button type="button" className="btn primary" disabled={busy || !linked.isSuccess || !providers.some((o) => o.id === p.id)} onClick={() => start(p.id)} aria-label={t('providers.connectName', { name: p.name })}>
                    {t('providers.connect')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
        {confirming && (
          <form onSubmit={confirm} noValidate aria-label={t('providers.confirmTitle')}>
            <p className="account-notice">{t('providers.confirmIntro')}</p>
            <CurrentPasswordField
              value={password}
              onValue={(v) => {
                setPassword(v);
                setErrors({});
              }}
              sudo={sudo}
              error={errors.password}
              autoFocus
            />
            <button className="btn primary" type="submit" disabled={busy}>
              {t('providers.continueTo', { name: rows.find((r) => r.id === confirming)?.name ?? '' })}
            </button>
          </form>
        )}
        {linked.isError && <FormError error={errorMessage(linked.error)} />}
        <FormError error={errors.form ?? ''} />
      </div>
    </section>
  );
}
