/**
 * "Report": a visitor tells the operator what is wrong with a share, or with the one item they are looking at: a
 * reason, and optionally their own words. A refusal (too many reports, the share closed meanwhile) is said in the
 * dialog and what was typed stays; a report sent closes it with a thank-you.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { REPORT_MESSAGE_MAX, REPORT_REASONS } from '@haul/shared/plain';
import type { ReportReason } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { DialogX } from '../../components/dialog-x';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { reportBody, reportProblem } from './report-form';
import { reportReasonText } from './report-reasons';
import { sendShareReport } from './share-report-api';

export interface ReportDialogProps {
  shareId: string;
  /** The token the pass code earned ('' for a public link). */
  token: string;
  /** The item reported, when the report is about one; else the share as a whole. */
  file?: { id: string; name: string };
  onClose: () => void;
}

export function ReportDialog({ shareId, token, file, onClose }: ReportDialogProps) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [message, setMessage] = useState('');
  const { busy, error, setError, submit } = useSubmit();
  const count = (n: number) => n.toLocaleString(i18n.language);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const draft = { shareId, token, fileId: file?.id ?? '', reason, message };
    const problem = reportProblem(draft);
    if (problem === 'reason') return setError(t('shareReport.pickReason'));
    if (problem === 'long') return setError(t('shareReport.tooLong', { max: count(REPORT_MESSAGE_MAX) }));
    await submit(async () => {
      await sendShareReport(reportBody({ ...draft, reason: draft.reason as ReportReason }));
      toast.success(t('shareReport.sent'));
      onClose();
    }, errorMessage);
  };

  return (
    <Dialog.Root open onOpenChange={(o) => !o && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog report-dialog" aria-describedby={`${id}-lead`}>
          <Dialog.Title className="dialog-title">
            {file ? t('shareReport.titleItem', { name: file.name }) : t('shareReport.title')}
          </Dialog.Title>
          <p id={`${id}-lead`} className="muted report-lead">
            {t('shareReport.lead')}
          </p>
          <form onSubmit={(e) => void send(e)} noValidate>
            <fieldset className="report-reasons">
              <legend>{t('shareReport.why')}</legend>
              {REPORT_REASONS.map((r) => (
                <label key={r} className="report-reason">
                  <input
                    type="radio"
                    name={`${id}-reason`}
                    value={r}
                    checked={reason === r}
                    onChange={() => {
                      setReason(r);
                      setError('');
                    }}
                  />
                  {reportReasonText(t, r)}
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label htmlFor={`${id}-message`}>{t('shareReport.message')}</label>
              <textarea
                id={`${id}-message`}
                className="report-message"
                rows={4}
                maxLength={REPORT_MESSAGE_MAX}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                aria-describedby={`${id}-count`}
              />
              <small id={`${id}-count`} className="muted report-count">
                {t('shareReport.count', { used: count(message.length), max: count(REPORT_MESSAGE_MAX) })}
              </small>
            </div>
            <FormError error={error} />
            <div className="dialog-actions">
              <Dialog.Close className="btn" type="button" disabled={busy}>
                {t('common.cancel')}
              </Dialog.Close>
              <button className="btn primary" type="submit" disabled={busy}>
                {t('shareReport.send')}
              </button>
            </div>
          </form>
          <DialogX />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
