/**
 * The operator asks every account to have a password (HAUL_REQUIRE_PASSWORD), and this one has none (made by a sign-in
 * provider or a mailed code): user info says `required_set_password`, and the drive says so over every screen, with
 * the way to set one (the password page takes a mailed code in place of the old password). It goes once one is set.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Icon } from '../../components/icon';
import { getMe } from '../auth/auth-api';

export function PasswordNeededBanner() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000, meta: { quiet: true } });
  if (!me?.required_set_password || pathname === '/account/password') return null;
  return (
    <div className="offline-banner password-needed" role="status">
      <Icon name="lock" size={18} />
      <span>
        {t('passwordNeeded.text')}{' '}
        <Link className="link" to="/account/password">
          {t('passwordNeeded.set')}
        </Link>
      </span>
    </div>
  );
}
