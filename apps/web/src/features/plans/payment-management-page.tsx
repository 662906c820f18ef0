/**
 * Payment management (/payment/management): the plan now (premium until when, what grants count, a new account's
 * trial), subscriptions with "cancel renewal", and every order with its status.
 */
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { formatSize } from '@haul/shared/plain';
import type { Subscription } from '@haul/shared';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { formatTime } from '../files/format-time';
import { formatPrice } from './plan-format';
import { cancelSubscription, listOrders, listSubscriptions, vipInfo } from './plans-api';
import './plans.css';
import { useRedeemBox } from './redeem-box';
import { TrialPanel } from './trial-panel';

function SubscriptionRow({ sub }: { sub: Subscription }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const cancel = async () => {
    setError('');
    try {
      await cancelSubscription(sub.id);
      toast.success(t('plans.canceled', { time: formatTime(sub.current_period_end, i18n.language) }));
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ['subscriptions'] });
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const end = formatTime(sub.current_period_end, i18n.language);
  return (
    <li className="device-row">
      <div className="device-main">
        <strong>{sub.title}</strong>
        <small className="muted">{t(`plans.sub.${sub.status}`, { time: end })}</small>
        <FormError error={error} />
      </div>
      {sub.status === 'active' &&
        (confirming ? (
          <span className="row-actions">
            <button className="btn" type="button" onClick={() => setConfirming(false)}>
              {t('plans.keep')}
            </button>
            <button className="btn danger" type="button" onClick={() => void cancel()}>
              {t('plans.confirmCancel')}
            </button>
          </span>
        ) : (
          <button className="btn" type="button" onClick={() => setConfirming(true)} aria-label={t('plans.cancelNamed', { title: sub.title })}>
            {t('plans.cancelRenewal')}
          </button>
        ))}
    </li>
  );
}

export function PaymentManagementPage() {
  const { t, i18n } = useTranslation();
  const redeem = useRedeemBox();
  const vip = useQuery({ queryKey: ['vip'], queryFn: vipInfo });
  const subs = useQuery({ queryKey: ['subscriptions'], queryFn: listSubscriptions });
  const orders = useQuery({ queryKey: ['orders'], queryFn: listOrders });
  const failed = vip.error ?? subs.error ?? orders.error;
  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('plans.manageTitle')}</h1>
      </div>
      <div className="account-form">
        {failed && <FormError error={errorMessage(failed)} />}
        {vip.data && (
          <div className="plan-now" data-premium={vip.data.premium}>
            <p>
              {vip.data.premium
                ? t('plans.premiumUntil', { time: formatTime(vip.data.expire, i18n.language), count: vip.data.surplus_day })
                : t('plans.free')}
            </p>
            {vip.data.grants.some((g) => g.kind !== 'premium') && (
              <ul className="plan-grants">
                {vip.data.grants
                  .filter((g) => g.kind !== 'premium')
                  .map((g, i) => (
                    <li key={i}>
                      {t(g.kind === 'storage' ? 'plans.liveStorage' : 'plans.liveTransfer', { size: formatSize(g.bytes, 0, i18n.language) })}
                      {g.ends_at && ` · ${t('plans.until', { time: formatTime(g.ends_at, i18n.language) })}`}
                    </li>
                  ))}
              </ul>
            )}
            <p className="plan-links">
              <Link className="btn primary" to="/payment">
                {vip.data.premium ? t('plans.extend') : t('limits.upgrade')}
              </Link>
              <button className="link" type="button" onClick={redeem.open}>
                {t('plans.haveCode')}
              </button>
            </p>
          </div>
        )}
        {vip.data && <TrialPanel vip={vip.data} />}
        <h2>{t('plans.subscriptions')}</h2>
        {subs.data?.length === 0 && <p className="muted">{t('plans.noSubscriptionsYet')}</p>}
        <ul className="device-list">{subs.data?.map((s) => <SubscriptionRow key={s.id} sub={s} />)}</ul>
        <h2>{t('plans.orders')}</h2>
        {orders.data?.length === 0 && <p className="muted">{t('plans.noOrders')}</p>}
        {!!orders.data?.length && (
          <table className="plan-orders">
            <thead>
              <tr>
                <th>{t('plans.orderDate')}</th>
                <th>{t('plans.orderWhat')}</th>
                <th>{t('plans.orderPrice')}</th>
                <th>{t('plans.orderStatus')}</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.map((o) => (
                <tr key={o.id}>
                  <td>{formatTime(o.created_at, i18n.language)}</td>
                  <td>{o.title}</td>
                  <td>{formatPrice(o.price, o.currency, i18n.language)}</td>
                  <td>{t(`plans.state.${o.status === 'close' && o.expired ? 'expired' : o.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
