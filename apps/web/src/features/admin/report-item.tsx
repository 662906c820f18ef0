/**
 * One report in the operator's queue, as a card: the share it is about (its page in the console, its status now), the
 * owner, the item, the reason and the visitor's words, who sent it and when, and how many open reports the share has.
 * An open report's files can be looked at (report-files.tsx) and it is handled below; a handled one says how, and can
 * be reopened.
 */
import type { TFunction } from 'i18next';
import type { ReportStatus } from '@haul/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../files/format-time';
import { reportReasonText } from '../share-page/report-reasons';
import type { ShareReport } from './admin-reports-api';
import { ReopenReport, ReportActions } from './report-actions';
import { ReportFiles } from './report-files';
import { isHeld, shareStatusText } from './share-hold';

/** Each status of a report in words; every key written out so the key check finds it. */
const STATUS_TEXT: Record<ReportStatus, (t: TFunction) => string> = {
  open: (t) => t('adminReports.status.open'),
  resolved: (t) => t('adminReports.status.resolved'),
  dismissed: (t) => t('adminReports.status.dismissed'),
};

export const reportStatusText = (t: TFunction, status: ReportStatus): string => STATUS_TEXT[status](t);

/** The share's status now; a share that is gone has no hold to show, only that it is gone. */
const shareNow = (t: TFunction, status: string) => (status === 'DELETED' ? t('adminReports.shareGone') : shareStatusText(t, status));

export function ReportItem({ report: r }: { report: ShareReport }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const others = Number(r.open_reports);
  const gone = r.share_status === 'DELETED';
  const title = r.share_title || (gone ? t('adminReports.goneTitle') : r.share_id);
  const [looking, setLooking] = useState(false);
  return (
    <article className="report-card" aria-labelledby={titleId} data-status={r.status}>
      <div className="report-card-head">
        <h2 id={titleId}>
          {gone ? (
            title
          ) : (
            <Link className="link" to={`/admin/shares?${new URLSearchParams({ id: r.share_id })}`}>
              {title}
            </Link>
          )}
        </h2>
        <span className={isHeld(r.share_status) || gone ? 'admin-badge off' : 'admin-badge'}>{shareNow(t, r.share_status)}</span>
        {others > 1 && <span className="report-many">{t('adminReports.openOfShare', { count: others })}</span>}
      </div>
      <dl className="admin-facts report-facts">
        <dt>{t('adminReports.reason')}</dt>
        <dd className="report-reason-text">{reportReasonText(t, r.reason)}</dd>
        {r.file_id && (
          <>
            <dt>{t('adminReports.item')}</dt>
            <dd>
              {r.file_name || t('adminReports.itemGone')}
              {r.file_sensitive && <span className="admin-badge off report-file-mark">{t('adminReports.fileNotShareable')}</span>}
            </dd>
          </>
        )}
        <dt>{t('admin.share.owner')}</dt>
        <dd>
          {r.owner_email ? (
            <Link className="link" to={`/admin/users/${encodeURIComponent(r.owner_id)}`}>
              {r.owner_email}
            </Link>
          ) : (
            t('audit.deletedAccount')
          )}
        </dd>
        <dt>{t('adminReports.reporter')}</dt>
        <dd>{r.reporter_email || t('adminReports.anonymous')}</dd>
        <dt>{t('adminReports.reported')}</dt>
        <dd>
          <time dateTime={r.created_time}>{formatTime(r.created_time, i18n.language)}</time>
        </dd>
        {r.status !== 'open' && (
          <>
            <dt>{t('adminReports.statusLabel')}</dt>
            <dd>
              {reportStatusText(t, r.status)}
              {r.handled_time && (
                <>
                  {' · '}
                  <time dateTime={r.handled_time}>{formatTime(r.handled_time, i18n.language)}</time>
                </>
              )}
            </dd>
            {r.note && (
              <>
                <dt>{t('adminReports.note')}</dt>
                <dd className="report-words">{r.note}</dd>
              </>
            )}
          </>
        )}
      </dl>
      {r.message ? (
        <blockquote className="report-words report-message-text" aria-label={t('adminReports.message')}>
          {r.message}
        </blockquote>
      ) : (
        <p className="muted report-no-message">{t('adminReports.noMessage')}</p>
      )}
      {r.status === 'open' && !gone && (
        <button type="button" className="btn report-look" aria-expanded={looking} onClick={() => setLooking(!looking)}>
          {looking ? t('adminReports.content.hide') : t('adminReports.content.look')}
        </button>
      )}
      {looking && r.status === 'open' && <ReportFiles reportId={r.id} />}
      {r.status === 'open' ? <ReportActions report={r} title={title} /> : <ReopenReport report={r} />}
    </article>
  );
}
