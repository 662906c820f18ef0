/**
 * Connected apps (/account/apps): the third-party apps the person allowed, what each may do, when it was connected and
 * last received tokens; Disconnect signs the app out at once and forgets the consent (it must ask again).
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { formatTime } from '../files/format-time';
import { disconnectApp, listApps } from '../oauth/oauth-api';

export function AppsPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const apps = useQuery({ queryKey: ['connected-apps'], queryFn: listApps });
  const [busy, setBusy] = useState<string | null>(null);

  const disconnect = async (clientId: string, name: string) => {
    setBusy(clientId);
    try {
      await disconnectApp(clientId);
      toast.success(t('oauth.disconnected', { app: name }));
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: ['connected-apps'] });
    }
  };

  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="apps-title" className="crumb current">
          {t('oauth.appsTitle')}
        </h1>
      </div>
      <div className="account-form">
        <p className="account-notice">{t('oauth.appsLead')}</p>
        {apps.isPending && <p className="muted">{t('common.loading')}</p>}
        {apps.isError && <FormError error={errorMessage(apps.error)} />}
        {apps.data?.length === 0 && <p className="muted">{t('oauth.none')}</p>}
        {!!apps.data?.length && (
          <ul className="device-list" aria-labelledby="apps-title">
            {apps.data.map((a) => (
              <li key={a.client_id} className="device-row">
                <div className="device-main">
                  <strong>{a.name}</strong>
                  <small className="muted">{a.scopes.map((s) => t(`oauth.scope.${s.name}`)).join(' · ')}</small>
                  <small className="muted">{t('oauth.connected', { time: formatTime(a.connected_time, i18n.language) })}</small>
                  <small className="muted">{t('oauth.lastUsed', { time: formatTime(a.last_used_time, i18n.language) })}</small>
                </div>
                <button className="btn" type="button" disabled={busy === a.client_id} onClick={() => void disconnect(a.client_id, a.name)} aria-label={t('oauth.disconnectNamed', { app: a.name })}>
                  {t('oauth.disconnect')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
