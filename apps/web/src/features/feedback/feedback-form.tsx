/**
 * The feedback form: the message (required), the page it is about (filled from where the person came from) and an
 * optional screenshot (a PNG, JPEG or WebP picture under 5 MB, checked here first; the server checks its bytes).
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_MESSAGE_MAX, FEEDBACK_SCREENSHOT_MAX_BYTES, FEEDBACK_SCREENSHOT_TYPES } from '@haul/shared/plain';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { fileBase64, sendFeedback, type Feedback } from './feedback-api';

const TYPES: readonly string[] = FEEDBACK_SCREENSHOT_TYPES;

export function FeedbackForm({ where: initialWhere, onSent }: { where: string; onSent: (f: Feedback) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [message, setMessage] = useState('');
  const [where, setWhere] = useState(initialWhere);
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [messageError, setMessageError] = useState('');
  const [fileError, setFileError] = useState('');
  const { busy, error, submit } = useSubmit();

  const pick = (f: File | null) => {
    setFileError('');
    if (f && !TYPES.includes(f.type)) return (setFile(null), setFileKey((k) => k + 1), setFileError(t('feedback.screenshotType')));
    if (f && f.size > FEEDBACK_SCREENSHOT_MAX_BYTES) return (setFile(null), setFileKey((k) => k + 1), setFileError(t('feedback.screenshotSize', { mb: FEEDBACK_SCREENSHOT_MAX_BYTES / 1024 / 1024 })));
    setFile(f);
  };

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!message.trim()) return setMessageError(t('feedback.messageNeeded'));
    void submit(async () => {
      const sent = await sendFeedback({ message, where: where.trim() || undefined, screenshot: file ? await fileBase64(file) : undefined });
      setMessage('');
      setFile(null);
      setFileKey((k) => k + 1);
      onSent(sent);
    }, errorMessage);
  };

  return (
    <form className="feedback-form" onSubmit={send} noValidate>
      <div className="field">
        <label htmlFor={`${id}-message`}>{t('feedback.message')}</label>
        <textarea
          id={`${id}-message`}
          rows={6}
          maxLength={FEEDBACK_MESSAGE_MAX}
          value={message}
          required
          onChange={(e) => (setMessage(e.target.value), setMessageError(''))}
          aria-invalid={messageError ? true : undefined}
          aria-describedby={messageError ? `${id}-message-error` : undefined}
        />
        {messageError && (
          <small id={`${id}-message-error`} className="field-error" role="alert">
            {messageError}
          </small>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-where`}>{t('feedback.where')}</label>
        <input id={`${id}-where`} type="text" maxLength={2000} value={where} onChange={(e) => setWhere(e.target.value)} aria-describedby={`${id}-where-hint`} />
        <small id={`${id}-where-hint`} className="muted">
          {t('feedback.whereHint')}
        </small>
      </div>
      <div className="field">
        <label htmlFor={`${id}-shot`}>{t('feedback.screenshot')}</label>
        <input
          key={fileKey}
          id={`${id}-shot`}
          type="file"
          accept={TYPES.join(',')}
          onChange={(e) => pick(e.target.files?.[0] ?? null)}
          aria-invalid={fileError ? true : undefined}
          aria-describedby={`${id}-shot-hint${fileError ? ` ${id}-shot-error` : ''}`}
        />
        <small id={`${id}-shot-hint`} className="muted">
          {t('feedback.screenshotHint', { mb: FEEDBACK_SCREENSHOT_MAX_BYTES / 1024 / 1024 })}
        </small>
        {fileError && (
          <small id={`${id}-shot-error`} className="field-error" role="alert">
            {fileError}
          </small>
        )}
      </div>
      <FormError error={error} />
      <div className="dialog-actions start">
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? t('feedback.sending') : t('feedback.send')}
        </button>
      </div>
    </form>
  );
}
