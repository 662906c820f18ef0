/**
 * The operator's console (/admin/…): for operators only; anyone else is sent to the 403 page. Its sections (accounts,
 * shares, the system, settings, the audit log) are linked above each page's heading, as the account area's pages are.
 */
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { getMe } from '../auth/auth-api';
import { OPEN_REPORTS_KEY, openReportCount } from './admin-reports-api';
import './admin.css';
import './reports.css';

/** The signed-in account (cached with the other pages' ['me']): who the operator is and whether they are one. */
export const useMe = () => useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });

/** The console's sections, in the order of its tabs; an account's page belongs to the accounts section. */
const SECTIONS: { to: string; label: (t: TFunction) => string }[] = [
  { to: '/admin', label: (t) => t('admin.tabs.users') },
  { to: '/admin/shares', label: (t) => t('admin.tabs.shares') },
  { to: '/admin/system', label: (t) => t('admin.tabs.system') },
  { to: '/admin/settings', label: (t) => t('admin.tabs.settings') },
  { to: '/admin/feedback', label: (t) => t('admin.tabs.feedback') },
  { to: '/admin/reports', label: (t) => t('adminReports.title') },
  { to: '/admin/plans', label: (t) => t('adminMoney.title') },
  { to: '/admin/audit', label: (t) => t('admin.tabs.audit') },
];

/** The section a path is in: the longest section path it starts with. */
const sectionOf = (path: string) => SECTIONS.filter((s) => path === s.to || path.startsWith(`${s.to}/`)).at(-1)?.to ?? '/admin';

export function AdminLayout() {
  const { t, i18n } = useTranslation();
  const me = useMe();
  const current = sectionOf(useLocation().pathname);
  // Reports waiting, beside their tab; nothing shown when none wait or the count cannot be had.
  const openReports = useQuery({
    queryKey: OPEN_REPORTS_KEY,
    queryFn: ({ signal }) => openReportCount(signal),
    enabled: !!me.data?.is_admin,
    retry: false,
    meta: { quiet: true },
  }).data;
  if (me.isPending) return <p className="muted admin-wait">{t('common.loading')}</p>;
  if (me.isError) return <FormError error={errorMessage(me.error)} />;
  if (!me.data.is_admin) return <Navigate to="/403" replace />;
  return (
    <>
      <nav className="account-nav" aria-label={t('admin.title')}>
        {SECTIONS.map((s) => (
          <Link key={s.to} to={s.to} className={current === s.to ? 'active' : ''} aria-current={current === s.to ? 'page' : undefined}>
            {s.label(t)}
            {s.to === '/admin/reports' && !!openReports && (
              <span className="nav-count-wrap">
                <span className="nav-count" aria-hidden="true">
                  {openReports.toLocaleString(i18n.language)}
                </span>
                <span className="nav-count-words"> ({t('adminReports.openCount', { count: openReports })})</span>
              </span>
            )}
          </Link>
        ))}
      </nav>
      <Outlet />
    </>
  );
}
