/**
 * Feedback (/admin/feedback): what people sent, newest first, page by page, filtered by status (`?status=`); one
 * opens in place (`?id=`) with its screenshot, the answer and close or reopen.
 */
import { FEEDBACK_STATUSES, type FeedbackStatus } from '@haul/shared/plain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PagedList } from '../../components/paged-list';
import { FeedbackItem } from '../feedback/feedback-item';
import { feedbackStatusText } from '../feedback/feedback-status';
import { feedbackListKey, listFeedback } from './admin-feedback-api';
import { AdminFeedbackDetail } from './admin-feedback-detail';
import '../feedback/feedback.css';

const statusOf = (v: string | null): FeedbackStatus | '' => ((FEEDBACK_STATUSES as readonly string[]).includes(v ?? '') ? (v as FeedbackStatus) : '');

function FeedbackList({ status }: { status: FeedbackStatus | '' }) {
  const { t } = useTranslation();
  const open = (id: string) => `?${new URLSearchParams({ ...(status ? { status } : {}), id })}`;
  return (
    <PagedList
      queryKey={feedbackListKey(status)}
      load={(token, signal) => listFeedback(status, token, signal)}
      items={(p) => p.feedback}
      itemKey={(f) => f.id}
      empty={t('feedback.admin.none')}
      ordered
      className="admin-feedback-list"
      label={t('feedback.title')}
      moreLabel={t('feedback.loadMore')}
    >
      {(f) => (
        <FeedbackItem
          status={f.status}
          createdTime={f.created_time}
          className="admin-feedback-row"
          who={<span>{f.user_email || t('audit.deletedAccount')}</span>}
          aside={f.screenshot_type && <span className="muted">{t('feedback.admin.hasScreenshot')}</span>}
        >
          <Link className="link admin-feedback-preview" to={open(f.id)}>
            {f.message}
          </Link>
        </FeedbackItem>
      )}
    </PagedList>
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
