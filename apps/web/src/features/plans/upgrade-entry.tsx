/**
 * The sidebar's plan entry, under the storage meter: "Get Premium" with the first offer's price for a free account,
 * the days left for a premium one (seed `activity/upgradeToPro`), and for a new account whose premium is its trial
 * alone (`free_vip`), the trial's days left with the way to the plans, before it runs out. Above it, while premium
 * (or storage, or transfer) taken back is unread, the notice that leads to /notices/premium-deduct.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DeductNotice } from '../notices/deduct-notice';
import { formatPrice } from './plan-format';
import { upgradeOffer } from './plans-api';

export function UpgradeEntry() {
  return (
    <>
      <DeductNotice />
      <PlanEntry />
    </>
  );
}

function PlanEntry() {
  const { t, i18n } = useTranslation();
  const { data } = useQuery({ queryKey: ['upgrade-offer'], queryFn: upgradeOffer, staleTime: 60_000 });
  if (!data) return null;
  if (data.free_vip) {
    return (
      <Link className="upgrade-entry trial" to="/payment">
        <strong>{t('trial.daysLeft', { count: data.free_days })}</strong>
        <small>{t('trial.seePlans')}</small>
      </Link>
    );
  }
  if (data.premium) {
    return (
      <Link className="upgrade-entry premium" to="/payment/management">
        {t('plans.premiumDaysLeft', { count: data.surplus_day })}
      </Link>
    );
  }
  const offer = data.offer;
  const every = offer && offer.subscriber_type !== 'none' ? ` ${t(offer.subscriber_type === 'month' ? 'plans.perMonth' : 'plans.perYear')}` : '';
  return (
    <Link className="upgrade-entry" to="/payment">
      <strong>{t('plans.upgradeEntry')}</strong>
      {offer && data.can_pay && <small>{t('plans.upgradeFrom', { price: `${formatPrice(offer.price, offer.currency, i18n.language)}${every}` })}</small>}
    </Link>
  );
}
