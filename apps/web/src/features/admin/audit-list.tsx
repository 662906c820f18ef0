/**
 * A page-by-page list of audit events, newest first, each in words: when, what, by whom, from which network and what
 * changed. The operator's log also names the account each event happened to (a link to it); the person's own
 * security log does not need to.
 */
import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { formatTime } from '../files/format-time';
import type { AuditEvent } from './admin-api';
import { auditActionText, auditActorText, auditChangeLines, type AuditReader } from './audit-words';
import './audit.css';

type AuditPages = UseInfiniteQueryResult<InfiniteData<{ events: AuditEvent[]; next_page_token: string }>>;

export function AuditList({ query, reader, label }: { query: AuditPages; reader: AuditReader; label: string }) {
  const { t, i18n } = useTranslation();
  const events = query.data?.pages.flatMap((p) => p.events);

  if (query.isPending) return <p className="muted">{t('common.loading')}</p>;
  if (query.isError && !events?.length) return <FormError error={errorMessage(query.error)} />;
  if (!events?.length) return <p className="muted">{t('audit.empty')}</p>;
  return (
    <>
      <ol className="audit-list" aria-label={label}>
        {events.map((e) => {
          // An account erased since is named as such ('' address).
          const subject = e.user_email || null;
          const changes = auditChangeLines(t, e, i18n.language);
          return (
            <li key={e.id} className="audit-row" data-action={e.action}>
              <div className="audit-head">
                <strong>{auditActionText(t, e.action)}</strong>
                <time dateTime={e.time} className="muted">
                  {formatTime(e.time, i18n.language)}
                </time>
              </div>
              {reader === 'operator' && (
                <div className="audit-subject">
                  {subject === null ? (
                    <span className="muted">{t('audit.deletedAccount')}</span>
                  ) : (
                    <Link className="link" to={`/admin/users/${encodeURIComponent(e.user_id)}`}>
                      {subject || t('audit.account')}
                    </Link>
                  )}
                </div>
              )}
              <small className="muted audit-meta">
                <span>{auditActorText(t, e, reader)}</span>
                {e.ip && <span>{t('audit.network', { ip: e.ip })}</span>}
              </small>
              {changes.length > 0 && (
                <ul className="audit-changes">
                  {changes.map((line, i) => (
                    <li key={i}>{line}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
      {query.isError && <FormError error={errorMessage(query.error)} />}
      {query.hasNextPage && (
        <button className="btn" type="button" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          {query.isFetchingNextPage ? t('common.loading') : t('audit.loadMore')}
        </button>
      )}
    </>
  );
}
