/**
 * The premium-transform dialog (seed 001: 640 by 640, corner radius 16, 0 on a phone, where it fills the screen):
 * what the person's plan is now, what premium changes on this server (the plans' own comparison), the offer, and
 * the way to pay. Opened by `?action=show_premium_transform_dialog` on any drive address (deep-links/).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Frame } from '../../app/dialogs/dialog-frame';
import { formatTime } from '../files/format-time';
import { PlanCompare } from './plan-compare';
import { formatPrice } from './plan-format';
import { upgradeOffer, vipInfo } from './plans-api';
import { usePremiumTransform } from './premium-transform-store';
import './premium-transform.css';

function TransformBody({ close }: { close: () => void }) {
  const { t, i18n } = useTranslation();
  const vip = useQuery({ queryKey: ['vip'], queryFn: vipInfo });
  const entry = useQuery({ queryKey: ['upgrade-offer'], queryFn: upgradeOffer, staleTime: 60_000 });
  const offer = entry.data?.offer;
  const every =
    offer && offer.subscriber_type !== 'none' ? ` ${t(offer.subscriber_type === 'month' ? 'plans.perMonth' : 'plans.perYear')}` : '';
  return (
    <>
      <h3>{t('firstWeek.transformNow')}</h3>
      <p className="transform-now" data-premium={vip.data?.premium}>
        {vip.data &&
          (vip.data.premium
            ? t('plans.premiumUntil', { time: formatTime(vip.data.expire, i18n.language), count: vip.data.surplus_day })
            : t('plans.free'))}
      </p>
      <PlanCompare />
      {offer && entry.data?.can_pay && (
        <p className="transform-offer">
          <strong>{offer.title}</strong> ·{' '}
          {t('plans.upgradeFrom', { price: `${formatPrice(offer.price, offer.currency, i18n.language)}${every}` })}
        </p>
      )}
      <div className="dialog-actions">
        <button className="btn" type="button" onClick={close}>
          {t('common.close')}
        </button>
        <Link className="btn primary" to="/payment" onClick={close}>
          {vip.data?.premium ? t('plans.extend') : t('limits.upgrade')}
        </Link>
      </div>
    </>
  );
}

export function PremiumTransformHost() {
  const { t } = useTranslation();
  const shown = usePremiumTransform((s) => s.shown);
  const set = usePremiumTransform((s) => s.set);
  if (!shown) return null;
  const close = () => set(false);
  return (
    <Frame title={t('firstWeek.transformTitle')} description={t('firstWeek.transformLead')} className="premium-transform" onClose={close}>
      <TransformBody close={close} />
    </Frame>
  );
}
