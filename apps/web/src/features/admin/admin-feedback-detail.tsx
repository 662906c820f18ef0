/**
 * One message in the console: who sent it, about which page, when, its status, the message and the screenshot; the
 * answer (the person reads it at once and gets it by mail) and close or reopen.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { FEEDBACK_MESSAGE_MAX } from '@haul/shared/plain';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { formatTime } from '../files/format-time';
import { feedbackStatusText } from '../feedback/feedback-status';
import { ScreenshotImage } from '../feedback/screenshot-image';
import { ADMIN_KEY } from './admin-api';
import { FeedbackToReport } from './feedback-to-report';
import { feedbackKey, feedbackScreenshot, feedbackShotKey, getFeedback, updateFeedback, type AdminFeedback } from './admin-feedback-api';

function AnswerForm({ item }: { item: AdminFeedback }) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const [answer, setAnswer] = useState(item.answer);
  const { busy, error, setError, submit } = useSubmit();
  const change = (body: { answer?: string; status?: 'open' | 'closed' }, done: string) =>
    submit(async () => {
      queryClient.setQueryData(feedbackKey(item.id), await updateFeedback(item.id, body));
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
      toast.success(done);
    }, errorMessage);
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!answer.trim()) return setError(t('feedback.admin.answerNeeded'));
    void change({ answer }, t('feedback.admin.answered'));
  };
  return (
    <form className="feedback-form" onSubmit={send} noValidate>
      <div className="field">
        <label htmlFor={`${id}-answer`}>{t('feedback.answer')}</label>
        <textarea id={`${id}-answer`} rows={5} maxLength={FEEDBACK_MESSAGE_MAX} value={answer} onChange={(e) => (setAnswer(e.target.value), setError(''))} aria-describedby={`${id}-hint`} />
        <small id={`${id}-hint`} className="muted">
          {t('feedback.admin.answerHint')}
        </small>
      </div>
      <FormError error={error} />
      <div className="admin-actions">
        <button type="submit" className="btn primary" disabled={busy}>
          {t('feedback.admin.sendAnswer')}
        </button>
        {item.status === 'closed' ? (
          <button type="button" className="btn" disabled={busy} onClick={() => void change({ status: 'open' }, t('feedback.admin.reopened'))}>
            {t('feedback.admin.reopen')}
          </button>
        ) : (
          <button type="button" className="btn" disabled={busy} onClick={() => void change({ status: 'closed' }, t('feedback.admin.closed'))}>
            {t('feedback.admin.close')}
          </button>
        )}
      </div>
    </form>
  );
}

export function AdminFeedbackDetail({ id, back }: { id: string; back: string }) {
  const { t, i18n } = useTranslation();
  const one = useQuery({ queryKey: feedbackKey(id), queryFn: ({ signal }) => getFeedback(id, signal), retry: false, meta: { quiet: true } });
  const item = one.data;
  return (
    <section className="admin-card" aria-labelledby="admin-feedback-title">
      <p className="admin-back">
        <Link className="link" to={back}>
          {t('feedback.admin.back')}
        </Link>
      </p>
      <h2 id="admin-feedback-title">{t('feedback.admin.one')}</h2>
      {one.isPending && <p className="muted">{t('common.loading')}</p>}
      {one.isError && <p role="alert">{errorMessage(one.error)}</p>}
      {item && (
        <>
          <p className="feedback-text">{item.message}</p>
          <dl className="admin-facts">
            <dt>{t('feedback.admin.from')}</dt>
            <dd>
              {item.user_email ? (
                <Link className="link" to={`/admin/users/${encodeURIComponent(item.user_id)}`}>
                  {item.user_email}
                </Link>
              ) : (
                t('audit.deletedAccount')
              )}
            </dd>
            <dt>{t('feedback.where')}</dt>
            <dd className="feedback-where">{item.where || '—'}</dd>
            <dt>{t('feedback.admin.sent')}</dt>
            <dd>{formatTime(item.created_time, i18n.language)}</dd>
            <dt>{t('feedback.admin.status')}</dt>
            <dd>
              <span className="feedback-badge" data-testid="feedback-status">
                {feedbackStatusText(t, item.status)}
              </span>
            </dd>
          </dl>
          {item.screenshot_type && (
            <>
              <h3>{t('feedback.screenshotAlt')}</h3>
              <ScreenshotImage queryKey={feedbackShotKey(item.id)} load={(s) => feedbackScreenshot(item.id, s)} alt={t('feedback.screenshotAlt')} />
            </>
          )}
          <FeedbackToReport key={`report-${item.id}`} feedbackId={item.id} text={`${item.message}\n${item.where}`} />
          <AnswerForm key={item.id} item={item} />
        </>
      )}
    </section>
  );
}
