/**
 * The security log (/account/security-log): the account's own security events, newest first, page by page, in the
 * same words as the operator's audit log: sign-ins from new networks, password, address and phone changes, two-factor
 * sign-in, app passwords and apps, and what an operator changed.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listOwnAudit, OWN_AUDIT_KEY } from '../admin/admin-api';
import { AuditList } from '../admin/audit-list';

export function SecurityLogPage() {
  const { t } = useTranslation();
  const events = useInfiniteQuery({
    queryKey: OWN_AUDIT_KEY,
    queryFn: ({ pageParam, signal }) => listOwnAudit(pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    // Asked again on opening: the page is where people look after something happened.
    staleTime: 0,
    meta: { quiet: true },
  });
  return (
    <section className="page">
      <div className="toolbar">
        <h1 className="crumb current">{t('securityLog.title')}</h1>
      </div>
      <div className="account-form security-log">
        <p className="account-notice">{t('securityLog.lead')}</p>
        <AuditList query={events} reader="self" label={t('securityLog.title')} />
      </div>
    </section>
  );
}
