/**
 * Reports (/admin/reports): what visitors reported about shares, newest first, page by page; open ones first (the
 * queue), resolved and dismissed ones in their own tabs (kept in the address as `?status=`).
 */
import { REPORT_STATUSES } from '@haul/shared/plain';
import type { ReportStatus } from '@haul/shared';
import { useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PagedList } from '../../components/paged-list';
import { listReports, reportsKey } from './admin-reports-api';
import { ReportItem, reportStatusText } from './report-item';
import './reports.css';

const statusOf = (v: string | null): ReportStatus =>
  (REPORT_STATUSES as readonly string[]).includes(v ?? '') ? (v as ReportStatus) : 'open';

function ReportList({ status }: { status: ReportStatus }) {
  const { t } = useTranslation();
  return (
    <PagedList
      queryKey={reportsKey(status)}
      load={(token, signal) => listReports(status, token, signal)}
      items={(p) => p.reports}
      itemKey={(r) => r.id}
      empty={
        <div className="report-empty">
          <p>{status === 'open' ? t('adminReports.noneOpen') : t('adminReports.none')}</p>
        </div>
      }
      ordered
      className="report-list"
      label={t('adminReports.listOf', { status: reportStatusText(t, status) })}
      moreLabel={t('adminReports.loadMore')}
      moreClassName="report-more"
    >
      {(r) => (
        <li>
          <ReportItem report={r} />
        </li>
      )}
    </PagedList>
  );
}

/** The three statuses as tabs: arrows, Home and End move between them (and show theirs), as a tab list does. */
function StatusTabs({ status, panelId, onPick }: { status: ReportStatus; panelId: string; onPick: (s: ReportStatus) => void }) {
  const { t } = useTranslation();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (e: KeyboardEvent, i: number) => {
    const last = REPORT_STATUSES.length - 1;
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = (to + REPORT_STATUSES.length) % REPORT_STATUSES.length;
    onPick(REPORT_STATUSES[next]!);
    tabs.current[next]?.focus();
  };
  return (
    <div className="tabs report-tabs" role="tablist" aria-label={t('adminReports.statusLabel')}>
      {REPORT_STATUSES.map((s, i) => (
        <button
          key={s}
          ref={(el) => {
            tabs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`${panelId}-${s}`}
          aria-selected={s === status}
          aria-controls={panelId}
          tabIndex={s === status ? 0 : -1}
          className={`tab${s === status ? ' on' : ''}`}
          onClick={() => onPick(s)}
          onKeyDown={(e) => move(e, i)}
        >
          {reportStatusText(t, s)}
        </button>
      ))}
    </div>
  );
}

export function AdminReportsPage() {
  const { t } = useTranslation();
  const panelId = useId();
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('adminReports.title')}</h1>
      </div>
      <div className="reports">
        <StatusTabs status={status} panelId={panelId} onPick={(s) => setParams(s === 'open' ? {} : { status: s }, { replace: true })} />
        <div role="tabpanel" id={panelId} aria-labelledby={`${panelId}-${status}`} className="report-panel">
          <ReportList key={status} status={status} />
        </div>
      </div>
    </section>
  );
}
