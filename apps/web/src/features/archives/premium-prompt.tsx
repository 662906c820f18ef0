/**
 * Shown instead of the archive when the server keeps cloud decompression for premium accounts (403
 * permission_denied): the benefits premium gives on this server, and Upgrade to the premium plans, coming back to this
 * archive once paid.
 */
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { BenefitCarousel } from '../limits/benefit-carousel';
import { benefitsOfPlans } from '../limits/benefits';
import { usePlanLimits } from '../plans/use-plan-limits';
import '../limits/limits.css';

export function DecompressPremiumPrompt() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const plans = usePlanLimits();
  const q = new URLSearchParams({ refer_from: 'cloud_decompression', return: `${pathname}${search}` });
  return (
    <section className="archive-premium" aria-labelledby="archive-premium-title">
      <h2 id="archive-premium-title">{t('archives.premiumTitle')}</h2>
      <p>{t('archives.premiumText')}</p>
      {plans.data && <BenefitCarousel only={benefitsOfPlans(plans.data)} />}
      <p>
        <Link className="btn primary" to={`/payment?${q}`}>
          {t('limits.upgrade')}
        </Link>
      </p>
    </section>
  );
}
