/**
 * How an operator holds a share: under review, taken down or not shareable, each with a reason its owner reads (asked
 * for here before anything is sent), or released; and its save limit. Every change is confirmed first, shown at once,
 * and a refusal is said in words under its form.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { useDialog } from '../../app/dialogs/dialog-store';
import type { AdminShare, HoldStatus } from './admin-api';
import { MAX_SAVE_LIMIT, parseSaveLimit } from './share-input';
import { HOLDS, isHeld, useShareHold } from './share-hold';

/** The longest reason the server keeps. */
const MAX_REASON = 500;

/** The words of one hold (or of the release): its button, its question, and what is said once it is done. */
function useHoldWords() {
  const { t } = useTranslation();
  return (status: HoldStatus, title: string) => {
    switch (status) {
      case 'AUDITING':
        return {
          label: t('admin.share.review'),
          title: t('admin.share.reviewTitle', { title }),
          body: t('admin.share.reviewBody'),
          done: t('admin.share.reviewed', { title }),
        };
      case 'PROHIBITED':
        return {
          label: t('admin.share.takeDown'),
          title: t('admin.share.takeDownTitle', { title }),
          body: t('admin.share.takeDownBody'),
          done: t('admin.share.takenDown', { title }),
          danger: true,
        };
      case 'SENSITIVE_RESOURCE':
        return {
          label: t('admin.share.notShareable'),
          title: t('admin.share.notShareableTitle', { title }),
          body: t('admin.share.notShareableBody'),
          done: t('admin.share.markedNotShareable', { title }),
          danger: true,
        };
      case 'OK':
        return {
          label: t('admin.share.release'),
          title: t('admin.share.releaseTitle', { title }),
          body: t('admin.share.releaseBody'),
          done: t('admin.share.released', { title }),
        };
    }
  };
}

/** The reason and the hold buttons; Release while the share is held. */
export function ShareHoldForm({ share }: { share: AdminShare }) {
  const { t } = useTranslation();
  const reasonId = useId();
  const openDialog = useDialog((s) => s.open);
  const hold = useShareHold(share.share_id);
  const words = useHoldWords();
  const [reason, setReason] = useState(share.reason);
  const [reasonError, setReasonError] = useState('');
  const { busy, error, submit } = useSubmit();

  const ask = (status: HoldStatus) => {
    const why = reason.trim();
    if (status !== 'OK' && !why) return setReasonError(t('admin.share.reasonNeeded'));
    const w = words(status, share.title);
    openDialog({
      type: 'confirm',
      title: w.title,
      body: w.body,
      confirmLabel: w.label,
      danger: w.danger,
      onConfirm: () =>
        submit(async () => {
          await hold(status === 'OK' ? { status } : { status, reason: why });
          toast.success(w.done);
        }, errorMessage),
    });
  };

  const described = [`${reasonId}-hint`, reasonError ? `${reasonId}-error` : ''].filter(Boolean).join(' ');
  return (
    <form className="admin-hold" onSubmit={(e) => e.preventDefault()} noValidate>
      <div className="field admin-reason">
        <label htmlFor={reasonId}>{t('admin.share.reason')}</label>
        <textarea
          id={reasonId}
          rows={3}
          maxLength={MAX_REASON}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setReasonError('');
          }}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={described}
        />
        <small id={`${reasonId}-hint`} className="muted">
          {t('admin.share.reasonHint')}
        </small>
        {reasonError && (
          <small id={`${reasonId}-error`} className="field-error" role="alert">
            {reasonError}
          </small>
        )}
      </div>
      <div className="admin-actions">
        {HOLDS.map((status) => {
          const w = words(status, share.title);
          return (
            <button key={status} className={`btn${w.danger ? ' danger' : ''}`} type="button" disabled={busy} onClick={() => ask(status)}>
              {w.label}
            </button>
          );
        })}
        {isHeld(share.status) && (
          <button className="btn primary" type="button" disabled={busy} onClick={() => ask('OK')}>
            {words('OK', share.title).label}
          </button>
        )}
      </div>
      <FormError error={error} />
    </form>
  );
}

/** The save limit: a whole number, 0 for none; checked here first, confirmed, the server's refusal at the field. */
export function SaveLimitForm({ share }: { share: AdminShare }) {
  const { t, i18n } = useTranslation();
  const openDialog = useDialog((s) => s.open);
  const hold = useShareHold(share.share_id);
  const [value, setValue] = useState(share.restore_limit);
  const { busy, error, setError, submit } = useSubmit();
  const count = (n: number | string) => Number(n).toLocaleString(i18n.language);

  const save = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseSaveLimit(value);
    if ('error' in parsed) {
      return setError(
        parsed.error === 'tooBig' ? t('admin.share.limitTooBig', { max: count(MAX_SAVE_LIMIT) }) : t('admin.share.limitInvalid'),
      );
    }
    const { limit } = parsed;
    openDialog({
      type: 'confirm',
      title: t('admin.share.limitTitle', { title: share.title }),
      body: limit ? t('admin.share.limitBody', { limit: count(limit), saved: count(share.restore_count) }) : t('admin.share.noLimitBody'),
      confirmLabel: t('admin.share.setLimit'),
      onConfirm: () =>
        submit(async () => {
          await hold({ restore_limit: limit });
          toast.success(
            limit
              ? t('admin.share.limitSet', { title: share.title, limit: count(limit) })
              : t('admin.share.limitRemoved', { title: share.title }),
          );
        }, errorMessage),
    });
  };

  return (
    <form className="admin-limit" onSubmit={save} noValidate>
      <TextField
        label={t('admin.share.limitLabel')}
        hint={t('admin.share.limitHint')}
        error={error}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setError('');
        }}
        inputMode="numeric"
        autoComplete="off"
      />
      <button className="btn primary" type="submit" disabled={busy}>
        {t('admin.share.setLimit')}
      </button>
    </form>
  );
}
