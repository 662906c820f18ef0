/** The effective configuration on the System page: every setting by the server's name for it, secrets shown as set. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { CONFIG_KEY, getConfig } from './admin-health-api';

export function SystemConfig() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const q = useQuery({ queryKey: CONFIG_KEY, queryFn: ({ signal }) => getConfig(signal), meta: { quiet: true } });
  const f = filter.trim().toLowerCase();
  const shown = (q.data?.entries ?? []).filter((e) => !f || e.key.toLowerCase().includes(f) || e.value.toLowerCase().includes(f));
  return (
    <section className="admin-card health-wide" aria-labelledby="health-config-title" data-testid="health-config">
      <h2 id="health-config-title">{t('adminHealth.config.title')}</h2>
      <p className="admin-note muted">{t('adminHealth.config.note')}</p>
      {q.isPending && <p className="muted">{t('common.loading')}</p>}
      {q.isError && <FormError error={errorMessage(q.error)} />}
      {q.data && (
        <>
          <label className="field health-filter">
            <span>{t('adminHealth.config.filter')}</span>
            <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
          </label>
          <div className="health-config-box">
            <dl className="health-config">
              {shown.map((e) => (
                <div key={e.key} className="health-config-row">
                  <dt className="health-mono">{e.key}</dt>
                  <dd className="health-mono" data-masked={e.masked || undefined}>
                    {e.masked ? t('adminHealth.config.masked') : e.value === '' || e.value === 'null' ? <span className="muted">{t('adminHealth.config.unset')}</span> : e.value}
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        </>
      )}
    </section>
  );
}
