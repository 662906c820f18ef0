/**
 * The audit log (/admin/audit): what operators did and every account's security events, newest first, page by page;
 * filtered by action (a select, `?event=`) and by account (`?user_id=`, from an account's page).
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AuditAction } from '@haul/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { auditKey, getUser, listAudit, userKey } from './admin-api';
import { AuditList } from './audit-list';
import { AUDIT_ACTION_LIST, auditActionText } from './audit-words';

const actionOf = (v: string | null): AuditAction | '' => (AUDIT_ACTION_LIST as string[]).includes(v ?? '') ? (v as AuditAction) : '';

export function AdminAuditPage() {
  const { t } = useTranslation();
  const selectId = useId();
  const [params, setParams] = useSearchParams();
  const userId = params.get('user_id') ?? '';
  // `event`, not `action`: `?action=` is the drive's deep link (features/deep-links), which takes it off the address.
  const action = actionOf(params.get('event'));
  const account = useQuery({
    queryKey: userKey(userId),
    queryFn: ({ signal }) => getUser(userId, signal),
    enabled: !!userId,
    retry: false,
    meta: { quiet: true },
  });
  const events = useInfiniteQuery({
    queryKey: auditKey(userId, action),
    queryFn: ({ pageParam, signal }) => listAudit({ userId, action }, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    meta: { quiet: true },
  });
  const filter = (next: { user_id?: string; event?: string }) => {
    const merged = { user_id: userId, event: action as string, ...next };
    setParams(Object.fromEntries(Object.entries(merged).filter(([, v]) => v)), { replace: true });
  };

  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('admin.tabs.audit')}</h1>
      </div>
      <div className="admin-filters">
        <div className="field">
          <label htmlFor={selectId}>{t('admin.audit.action')}</label>
          <select id={selectId} value={action} onChange={(e) => filter({ event: e.target.value })}>
            <option value="">{t('admin.audit.allActions')}</option>
            {AUDIT_ACTION_LIST.map((a) => (
              <option key={a} value={a}>
                {auditActionText(t, a)}
              </option>
            ))}
          </select>
        </div>
        {userId && (
          <p className="admin-filter-account">
            <span>{t('admin.audit.ofAccount', { account: account.data?.user.email ?? userId })}</span>
            <Link className="link" to={`/admin/users/${encodeURIComponent(userId)}`}>
              {t('admin.audit.openAccount')}
            </Link>
            <button className="link" type="button" onClick={() => filter({ user_id: '' })}>
              {t('admin.audit.allAccounts')}
            </button>
          </p>
        )}
      </div>
      <AuditList query={events} reader="operator" label={t('admin.tabs.audit')} />
    </section>
  );
}
