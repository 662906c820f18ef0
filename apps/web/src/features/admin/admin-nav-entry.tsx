/** The sidebar's link to the operator's console, shown to operators only. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Icon } from '../../components/icon';
import { getMe } from '../auth/auth-api';

export function AdminNavEntry({ onClick }: { onClick?: () => void }) {
  const { t } = useTranslation();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  if (!me?.is_admin) return null;
  return (
    <NavLink to="/admin" className="nav-item" onClick={onClick}>
      <Icon name="lock" />
      <span>{t('admin.title')}</span>
    </NavLink>
  );
}
