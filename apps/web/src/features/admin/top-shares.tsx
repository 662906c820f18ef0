/**
 * The links visitors use most (on /admin/shares): the 20 live shares opened or saved most, each opening its page in
 * the console, where it can be held. What an operator looks at first when a link starts going around.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { getTopShares, topSharesKey, type TopOrder } from './admin-api';
import { isHeld, shareStatusText } from './share-hold';
import './system-health.css';

export function TopShares() {
  const { t, i18n } = useTranslation();
  const [order, setOrder] = useState<TopOrder>('views');
  const q = useQuery({ queryKey: topSharesKey(order), queryFn: ({ signal }) => getTopShares(order, signal), meta: { quiet: true } });
  const count = (n: string) => Number(n).toLocaleString(i18n.language);
  return (
    <section className="admin-card" aria-labelledby="top-shares-title">
      <h2 id="top-shares-title">{t('adminTop.title')}</h2>
      <div className="top-shares-order" role="group" aria-label={t('adminTop.order')}>
        {(['views', 'saves'] as const).map((o) => (
          <button key={o} type="button" className={`btn${o === order ? ' primary' : ''}`} aria-pressed={o === order} onClick={() => setOrder(o)}>
            {o === 'views' ? t('adminTop.mostViewed') : t('adminTop.mostSaved')}
          </button>
        ))}
      </div>
      {q.isPending && <p className="muted">{t('common.loading')}</p>}
      {q.isError && <FormError error={errorMessage(q.error)} />}
      {q.data && q.data.shares.length === 0 && <p className="muted">{order === 'views' ? t('adminTop.noneViewed') : t('adminTop.noneSaved')}</p>}
      {q.data && q.data.shares.length > 0 && (
        <table className="health-table" aria-labelledby="top-shares-title">
          <thead>
            <tr>
              <th>{t('admin.share.title')}</th>
              <th>{t('admin.share.owner')}</th>
              <th>{t('share.views')}</th>
              <th>{t('share.saves')}</th>
              <th>{t('admin.users.status')}</th>
            </tr>
          </thead>
          <tbody>
            {q.data.shares.map((s) => (
              <tr key={s.share_id} data-testid="top-share">
                <td data-label={t('admin.share.title')}>
                  <Link className="link" to={`/admin/shares?id=${encodeURIComponent(s.share_id)}`}>
                    {s.title || s.share_id}
                  </Link>
                </td>
                <td data-label={t('admin.share.owner')}>{s.user_email || t('audit.deletedAccount')}</td>
                <td data-label={t('share.views')}>{count(s.view_count)}</td>
                <td data-label={t('share.saves')}>{count(s.restore_count)}</td>
                <td data-label={t('admin.users.status')}>
                  <span className={isHeld(s.status) ? 'admin-badge off' : 'admin-badge'}>{shareStatusText(t, s.status)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
