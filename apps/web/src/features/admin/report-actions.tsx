/**
 * What the operator does with a report: hold its share (under review, taken down, not shareable, with a reason its
 * owner reads) or, when it names a file, mark only that file not shareable; resolve it with nothing held, or dismiss it; an optional note stays with the report. Closing one closes
 * every open report of the same share, and the toast says how many. A handled report can be reopened.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { REPORT_MESSAGE_MAX } from '@haul/shared/plain';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { ADMIN_KEY, type HoldStatus } from './admin-api';
import { handleReport, markFile, type ReportHandling, type ShareReport } from './admin-reports-api';
import { HOLDS } from './share-hold';

/** A hold of the share, or FILE: only the file the report names is marked not shareable. */
type Hold = Exclude<HoldStatus, 'OK'> | 'FILE';

/** The longest reason the server keeps (as the share's own hold). */
const MAX_REASON = 500;

/** A hold in the words the share's page uses for its status; every key written out so the key check finds it. */
const HOLD_TEXT: Record<Exclude<Hold, 'FILE'>, (t: TFunction) => string> = {
  AUDITING: (t) => t('admin.share.status.auditing'),
  PROHIBITED: (t) => t('admin.share.status.prohibited'),
  SENSITIVE_RESOURCE: (t) => t('admin.share.status.sensitiveResource'),
};

/** Sends a handling, says what it did, and refreshes the console (the queue, its count, the share's page). */
function useHandle(id: string) {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  return async (handling: ReportHandling) => {
    const { closed } = await handleReport(id, handling);
    if (handling.status === 'open') toast.success(t('adminReports.reopened'));
    else toast.success(t('adminReports.closed', { count: Number(closed) }));
    await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
  };
}

export function ReportActions({ report, title }: { report: ShareReport; title: string }) {
  const { t } = useTranslation();
  const id = useId();
  const handle = useHandle(report.id);
  const [note, setNote] = useState('');
  const [holding, setHolding] = useState(false);
  const [hold, setHold] = useState<Hold | ''>('');
  const [reason, setReason] = useState('');
  const [holdError, setHoldError] = useState('');
  const { busy, error, submit } = useSubmit();
  const gone = report.share_status === 'DELETED';
  // A report about one file may hold only that file, when it is still there and not marked yet.
  const choices: Hold[] = report.file_name && !report.file_sensitive ? [...HOLDS, 'FILE'] : [...HOLDS];
  // The hold's choices replace its button: focus goes to the first choice, and back to the button on Cancel.
  const holdButton = useRef<HTMLButtonElement>(null);
  const cancelHold = () => {
    setHolding(false);
    setHoldError('');
    setTimeout(() => holdButton.current?.focus());
  };

  const noted = () => (note.trim() ? { note: note.trim() } : {});
  const close = (status: 'resolved' | 'dismissed') => void submit(() => handle({ status, ...noted() }), errorMessage);
  const sendHold = (e: FormEvent) => {
    e.preventDefault();
    if (!hold) return setHoldError(t('adminReports.pickHold'));
    if (!reason.trim()) return setHoldError(t('admin.share.reasonNeeded'));
    const what = hold === 'FILE' ? { mark_file: true } : { hold };
    void submit(() => handle({ status: 'resolved', ...what, reason: reason.trim(), ...noted() }), errorMessage);
  };

  return (
    <form className="report-actions" aria-label={t('adminReports.handleOf', { title })} onSubmit={sendHold} noValidate>
      <div className="field">
        <label htmlFor={`${id}-note`}>{t('adminReports.noteLabel')}</label>
        <textarea
          id={`${id}-note`}
          className="report-note"
          rows={2}
          maxLength={REPORT_MESSAGE_MAX}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-describedby={`${id}-note-hint`}
        />
        <small id={`${id}-note-hint`} className="muted">
          {t('adminReports.noteHint')}
        </small>
      </div>
      {holding && (
        <fieldset className="report-hold">
          <legend>{t('adminReports.holdAs')}</legend>
          <div className="report-hold-choices">
            {choices.map((h, i) => (
              <label key={h} className="report-hold-choice">
                <input
                  autoFocus={i === 0}
                  type="radio"
                  name={`${id}-hold`}
                  value={h}
                  checked={hold === h}
                  onChange={() => {
                    setHold(h);
                    setHoldError('');
                  }}
                />
                {h === 'FILE' ? t('adminReports.markFile', { name: report.file_name }) : HOLD_TEXT[h](t)}
              </label>
            ))}
          </div>
          <div className="field admin-reason">
            <label htmlFor={`${id}-reason`}>{t('admin.share.reason')}</label>
            <textarea
              id={`${id}-reason`}
              rows={3}
              maxLength={MAX_REASON}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setHoldError('');
              }}
              aria-invalid={holdError && !reason.trim() ? true : undefined}
              aria-describedby={`${id}-reason-hint`}
            />
            <small id={`${id}-reason-hint`} className="muted">
              {t('admin.share.reasonHint')}
            </small>
          </div>
          {holdError && (
            <p className="form-error" role="alert">
              {holdError}
            </p>
          )}
          <div className="admin-actions">
            <button className="btn danger" type="submit" disabled={busy}>
              {t('adminReports.holdSend')}
            </button>
            <button className="btn" type="button" disabled={busy} onClick={cancelHold}>
              {t('common.cancel')}
            </button>
          </div>
        </fieldset>
      )}
      {!holding && (
        <div className="admin-actions">
          {!gone && (
            <button ref={holdButton} className="btn" type="button" disabled={busy} onClick={() => setHolding(true)}>
              {t('adminReports.hold')}
            </button>
          )}
          <button className="btn primary" type="button" disabled={busy} onClick={() => close('resolved')}>
            {t('adminReports.resolve')}
          </button>
          <button className="btn" type="button" disabled={busy} onClick={() => close('dismissed')}>
            {t('adminReports.dismiss')}
          </button>
        </div>
      )}
      <FormError error={error} />
    </form>
  );
}

/** A handled report back in the queue; a file it marked not shareable given back. */
export function ReopenReport({ report }: { report: ShareReport }) {
  const { t } = useTranslation();
  const handle = useHandle(report.id);
  const queryClient = useQueryClient();
  const { busy, error, submit } = useSubmit();
  const release = () =>
    void submit(async () => {
      await markFile(report.file_id, false);
      toast.success(t('adminReports.fileReleased', { name: report.file_name }));
      await queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
    }, errorMessage);
  return (
    <div className="report-actions">
      <div className="admin-actions">
        <button className="btn" type="button" disabled={busy} onClick={() => void submit(() => handle({ status: 'open' }), errorMessage)}>
          {t('adminReports.reopen')}
        </button>
        {report.file_sensitive && (
          <button className="btn" type="button" disabled={busy} onClick={release}>
            {t('adminReports.releaseFile', { name: report.file_name })}
          </button>
        )}
      </div>
      <FormError error={error} />
    </div>
  );
}
