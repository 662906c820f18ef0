/**
 * Feedback (/admin/feedback): what people sent, newest first, page by page, filtered by status (`?status=`); one
 * opens in place (`?id=`) with its screenshot, the answer and close or reopen.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { FEEDBACK_STATUSES, type FeedbackStatus } from '@haul/shared/plain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatTime } from '../files/format-time';
import { feedbackStatusText } from '../feedback/feedback-status';
import { feedbackListKey, listFeedback } from './admin-feedback-api';
import { AdminFeedbackDetail } from './admin-feedback-detail';
import '../feedback/feedback.css';

const statusOf = (v: string | null): FeedbackStatus | '' => ((FEEDBACK_STATUSES as readonly string[]).includes(v ?? '') ? (v as FeedbackStatus) : '');

function FeedbackList({ status }: { status: FeedbackStatus | '' }) {
  const { t, i18n } = useTranslation();
  const list = useInfiniteQuery({
    queryKey: feedbackListKey(status),
    queryFn: ({ pageParam, signal }) => listFeedback(status, pageParam, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    meta: { quiet: true },
  });
  if (list.isPending) return <p className="muted">{t('common.loading')}</p>;
  const items = list.data?.pages.flatMap((p) => p.feedback) ?? [];
  if (!items.length) return <p className="muted">{t('feedback.admin.none')}</p>;
  const open = (id: string) => `?${new URLSearchParams({ ...(status ? { status } : {}), id })}`;
  return (
    <>
      <ol className="admin-feedback-list" aria-label={t('feedback.title')}>
        {items.map((f) => (
          <li key={f.id} className="admin-feedback-row" data-status={f.status}>
            <div className="feedback-head">
              <span className="feedback-badge">{feedbackStatusText(t, f.status)}</span>
              <span>{f.user_email || t('audit.deletedAccount')}</span>
              <time dateTime={f.created_time} className="muted">
                {formatTime(f.created_time, i18n.language)}
              </time>
              {f.screenshot_type && <span className="muted">{t('feedback.admin.hasScreenshot')}</span>}
            </div>
            <Link className="link admin-feedback-preview" to={open(f.id)}>
              {f.message}
            </Link>
          </li>
        ))}
      </ol>
      {list.hasNextPage && (
        <button className="btn" type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? t('common.loading') : t('feedback.loadMore')}
        </button>
      )}
    </>
  );
}

export function AdminFeedbackPage() {
  const { t } = useTranslation();
  const selectId = useId();
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  const id = params.get('id') ?? '';
  return (
    <section className="page admin-page">
      <div className="toolbar">
        <h1 className="crumb current">{t('feedback.title')}</h1>
      </div>
      {id ? (
        <AdminFeedbackDetail id={id} back={status ? `?status=${status}` : '?'} />
      ) : (
        <>
          <div className="admin-filters">
            <div className="field">
              <label htmlFor={selectId}>{t('feedback.admin.status')}</label>
              <select id={selectId} value={status} onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {}, { replace: true })}>
                <option value="">{t('feedback.admin.all')}</option>
                {FEEDBACK_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {feedbackStatusText(t, s)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <FeedbackList status={status} />
        </>
      )}
    </section>
  );
}
