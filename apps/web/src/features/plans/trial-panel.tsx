/**
 * The new account's premium trial on the payment management page: what it is, the days left, the day it ends, and that
 * premium bought now starts where the trial ends (premium chains, docs/decisions/plans.md), so none of it is lost.
 */
import { useTranslation } from 'react-i18next';
import type { VipInfo } from '@haul/shared';
import { formatTime } from '../files/format-time';

export function TrialPanel({ vip }: { vip: VipInfo }) {
  const { t, i18n } = useTranslation();
  const trial = vip.grants.find((g) => g.kind === 'premium' && g.source === 'trial');
  if (!trial || vip.free_days <= 0) return null;
  return (
    <section className="trial-panel" aria-labelledby="trial-panel-title">
      <h2 id="trial-panel-title">{t('firstWeek.trialTitle')}</h2>
      <p>{t('firstWeek.trialBody')}</p>
      <p>
        <strong>{t('firstWeek.trialLeft', { count: vip.free_days, time: formatTime(trial.ends_at, i18n.language) })}</strong>
      </p>
      <p className="muted">{t('firstWeek.trialAdds')}</p>
    </section>
  );
}
