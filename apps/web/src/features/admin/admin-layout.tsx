/**
 * The operator's console (/admin/…): for operators only; anyone else is sent to the 403 page. Its sections (accounts,
 * the audit log) are linked above each page's heading, as the account area's pages are.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { getMe } from '../auth/auth-api';
import './admin.css';

/** The signed-in account (cached with the other pages' ['me']): who the operator is and whether they are one. */
export const useMe = () => useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });

export function AdminLayout() {
  const { t } = useTranslation();
  const me = useMe();
  // An account's page belongs to the accounts section.
  const onAudit = useLocation().pathname.startsWith('/admin/audit');
  if (me.isPending) return <p className="muted admin-wait">{t('common.loading')}</p>;
  if (me.isError) return <FormError error={errorMessage(me.error)} />;
  if (!me.data.is_admin) return <Navigate to="/403" replace />;
  return (
    <>
      <nav className="account-nav" aria-label={t('admin.title')}>
        <Link to="/admin" className={onAudit ? '' : 'active'} aria-current={onAudit ? undefined : 'page'}>
          {t('admin.tabs.users')}
        </Link>
        <Link to="/admin/audit" className={onAudit ? 'active' : ''} aria-current={onAudit ? 'page' : undefined}>
          {t('admin.tabs.audit')}
        </Link>
      </nav>
      <Outlet />
    </>
  );
}
