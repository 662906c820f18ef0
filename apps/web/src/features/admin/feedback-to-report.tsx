/**
 * A feedback message that names a share (a link to it in the words, or the share page it was sent from) can join the
 * report queue as that share's report, its sender the reporter: one form per message, the share (when it names
 * several) and the reason, then a link to the queue.
 */
import { useQueryClient } from '@tanstack/react-query';
import { REPORT_REASONS, sharesNamedIn, type ReportReason } from '@haul/shared/plain';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { reportReasonText } from '../share-page/report-reasons';
import { ADMIN_KEY } from './admin-api';
import { reportFromFeedback } from './admin-reports-api';

export function FeedbackToReport({ feedbackId, text }: { feedbackId: string; text: string }) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const shares = sharesNamedIn(text);
  const [shareId, setShareId] = useState(shares[0] ?? '');
  const [reason, setReason] = useState<ReportReason>('other');
  const [made, setMade] = useState(false);
  const { busy, error, submit } = useSubmit();
  if (!shares.length) return null;
  const send = (e: FormEvent) => {
    e.preventDefault();
    void submit(async () => {
      await reportFromFeedback(feedbackId, shareId, reason);
      setMade(true);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    }, errorMessage);
  };
  if (made)
    return (
      <p className="feedback-to-report" role="status">
        {t('adminReports.fromFeedback.made')}{' '}
        <Link className="link" to="/admin/reports">
          {t('adminReports.fromFeedback.queue')}
        </Link>
      </p>
    );
  return (
    <form className="feedback-to-report" onSubmit={send} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('adminReports.fromFeedback.title')}</h3>
      <p className="muted small">{t('adminReports.fromFeedback.lead')}</p>
      {shares.length > 1 && (
        <div className="field">
          <label htmlFor={`${id}-share`}>{t('adminReports.fromFeedback.share')}</label>
          <select id={`${id}-share`} value={shareId} onChange={(e) => setShareId(e.target.value)}>
            {shares.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-reason`}>{t('adminReports.reason')}</label>
        <select id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.target.value as ReportReason)}>
          {REPORT_REASONS.map((r) => (
            <option key={r} value={r}>
              {reportReasonText(t, r)}
            </option>
          ))}
        </select>
      </div>
      <FormError error={error} />
      <div className="admin-actions">
        <button type="submit" className="btn" disabled={busy}>
          {t('adminReports.fromFeedback.add')}
        </button>
      </div>
    </form>
  );
}
