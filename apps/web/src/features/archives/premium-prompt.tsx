/**
 * Shown instead of the archive when the server keeps cloud decompression for premium accounts (403
 * permission_denied): the benefits, and Upgrade to the premium plans, coming back to this archive once paid.
 */
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { BenefitCarousel } from '../limits/benefit-carousel';
import '../limits/limits.css';

export function DecompressPremiumPrompt() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const q = new URLSearchParams({ refer_from: 'cloud_decompression', return: `${pathname}${search}` });
  return (
    <section className="archive-premium" aria-labelledby="archive-premium-title">
      <h2 id="archive-premium-title">{t('archives.premiumTitle')}</h2>
      <p>{t('archives.premiumText')}</p>
      <BenefitCarousel />
      <p>
        <Link className="btn primary" to={`/payment?${q}`}>
          {t('limits.upgrade')}
        </Link>
      </p>
    </section>
  );
}
