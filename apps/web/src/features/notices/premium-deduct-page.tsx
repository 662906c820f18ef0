/**
 * The premium-deduct notice (seed 000 route `notices/premium-deduct`, open signed out): when a payment is refunded,
 * what it bought is taken back. Signed in, the page tells each taking of the last 90 days (how much, why, when) and
 * the plan left, and marks them read; signed out, it explains in general and offers to sign in and come back here.
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import type { Deduction } from '@haul/shared';
import { formatSize } from '@haul/shared/plain';
import { FormError } from '../../components/form-error';
import { errorMessage } from '../../lib/error-message';
import { AuthShell } from '../auth/login-page';
import { useSessionStore } from '../auth/session-store';
import { formatTime } from '../files/format-time';
import { Logo } from '../layout/logo';
import { vipInfo } from '../plans/plans-api';
import { useUnseenDeduction } from './notices-api';
import './notices.css';

const HERE = '/notices/premium-deduct';

function takenWords(d: Deduction, t: TFunction, locale: string): string {
  if (d.kind === 'premium') return t('firstWeek.deductPremium', { count: d.days });
  const size = formatSize(Number(d.bytes), 0, locale);
  return t(d.kind === 'storage' ? 'firstWeek.deductStorage' : 'firstWeek.deductTransfer', { size });
}

function SignedInNotice() {
  const { t, i18n } = useTranslation();
  const vip = useQuery({ queryKey: ['vip'], queryFn: vipInfo });
  const { unseen, markSeen } = useUnseenDeduction();
  // Reading the page is reading the notice: the sidebar's notice goes away.
  useEffect(() => {
    if (unseen) void markSeen();
  }, [unseen, markSeen]);
  if (vip.error) return <FormError error={errorMessage(vip.error)} />;
  if (!vip.data) return null;
  const { deductions } = vip.data;
  return (
    <>
      {deductions.length === 0 ? (
        <p>{t('firstWeek.deductNone')}</p>
      ) : (
        <ul className="deduct-list" aria-label={t('firstWeek.deductTitle')}>
          {deductions.map((d, i) => (
            <li key={i}>
              <strong>{takenWords(d, t, i18n.language)}</strong>
              <span>
                {d.reason === 'refund'
                  ? t('firstWeek.deductWhyRefund', { title: d.title, time: formatTime(d.at, i18n.language) })
                  : t('firstWeek.deductWhyRevoked', { time: formatTime(d.at, i18n.language) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>{t('firstWeek.nowHeading')}</h2>
      <p data-premium={vip.data.premium}>
        {vip.data.premium ? t('plans.premiumUntil', { time: formatTime(vip.data.expire, i18n.language), count: vip.data.surplus_day }) : t('plans.free')}
      </p>
      <p className="plan-links">
        <Link className="btn primary" to="/payment">
          {vip.data.premium ? t('plans.extend') : t('limits.upgrade')}
        </Link>
        <Link to="/payment/management">{t('firstWeek.manage')}</Link>
        <Link to="/all">{t('firstWeek.backToDrive')}</Link>
      </p>
    </>
  );
}

export function PremiumDeductPage() {
  const { t } = useTranslation();
  const signedIn = useSessionStore((s) => !!s.session);
  return (
    <AuthShell>
      <section className="login-card deduct-page" aria-labelledby="deduct-title">
        <Logo />
        <h1 id="deduct-title">{t('firstWeek.deductTitle')}</h1>
        <p className="muted">{t('firstWeek.deductIntro')}</p>
        {signedIn ? (
          <SignedInNotice />
        ) : (
          <>
            <p>{t('firstWeek.signedOut')}</p>
            <p>
              <Link className="btn primary" to={`/login?redirect=${encodeURIComponent(HERE)}`}>
                {t('firstWeek.signIn')}
              </Link>
            </p>
          </>
        )}
      </section>
    </AuthShell>
  );
}
