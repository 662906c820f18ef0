/**
 * Delete account (/account/destroy): says what would be erased, from the server's count, then asks for the current
 * password or a code mailed for DELETION (a sudo token) and a ticked "I understand", as Google and Dropbox do, and
 * deletes. This browser then forgets the account as a sign-out does, and the sign-in page says it is gone.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { formatSize } from '@haul/shared/plain';
import { isApiError, isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { deleteAccount, deletionEligibility, getMe } from '../auth/auth-api';
import { useSudo } from './use-sudo';
import { SudoField } from './sudo-field';

type Field = 'password' | 'understood';
type Errors = Partial<Record<Field | 'form', string>>;
type Eligibility = Awaited<ReturnType<typeof deletionEligibility>>;

/** What deleting would erase, in a list a person reads before deciding. */
function WhatGoes({ e }: { e: Eligibility }) {
  const { t, i18n } = useTranslation();
  const uploads = Number(e.upload_count);
  return (
    <>
      <p className="deletion-lead">{t('account.deletion.lead')}</p>
      <ul className="deletion-list">
        <li>
          {t('account.deletion.content', {
            files: t('account.deletion.files', { count: Number(e.file_count) }),
            folders: t('account.deletion.folders', { count: Number(e.folder_count) }),
            size: formatSize(e.size, 1, i18n.language),
          })}
        </li>
        <li>{t('account.deletion.shares', { count: Number(e.share_count) })}</li>
        <li>{t('account.deletion.cloudDownloads', { count: Number(e.cloud_download_count) })}</li>
        {uploads > 0 && <li>{t('account.deletion.uploads', { count: uploads })}</li>}
      </ul>
      <p id="deletion-final" className="deletion-final">
        {t('account.deletion.final')}
      </p>
    </>
  );
}

/** Why the account cannot go now, in the page's language when the reason is known, else in the server's words. */
function Blocked({ reasons }: { reasons: Eligibility['reasons'] }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="deletion-blocked">
      <h2>{t('account.deletion.blocked')}</h2>
      <ul>
        {reasons.map((r) => (
          <li key={r.reason}>
            {i18n.exists(`account.deletion.blockers.${r.reason}`) ? t(`account.deletion.blockers.${r.reason}`) : r.description}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function DeleteAccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  // Counted afresh on every visit; a failure is shown here, with a way to try again, not as a toast.
  const eligibility = useQuery({ queryKey: ['deletion-eligibility'], queryFn: deletionEligibility, staleTime: 0, meta: { quiet: true } });
  const [password, setPassword] = useState('');
  const [understood, setUnderstood] = useState(false);
  const { busy, error: errors, setError: setErrors, submit: send } = useSubmit<Errors>({});
  const sudo = useSudo('DELETION');
  const refs = { password: useRef<HTMLInputElement>(null), understood: useRef<HTMLInputElement>(null) };

  const refuse = (field: Field | 'form', message: string) => {
    setErrors({ [field]: message });
    if (field !== 'form') refs[field].current?.focus();
  };

  const destroy = async (): Promise<void> => {
    let token: string;
    try {
      token = await sudo.token(password);
    } catch (err) {
      if (isPasswordRefusal(err)) return refuse('password', errorMessage(err));
      throw err;
    }
    try {
      await deleteAccount(token);
    } catch (err) {
      // Someone else's change (the other administrator went) can block it meanwhile: show the reasons anew.
      if (isApiError(err, 'failed_precondition')) void eligibility.refetch();
      if (!isApiError(err, 'invalid_grant')) throw err;
      // The confirmation ran out: confirm again with the password still typed, once (a code is spent: ask anew).
      sudo.forget();
      if (sudo.mode === 'code') throw err;
      await deleteAccount(await sudo.token(password));
    }
    queryClient.clear();
    void navigate('/login', { replace: true });
    toast.success(t('account.deleted'));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const missing = sudo.missing(password);
    if (missing) return refuse('password', t(missing));
    if (!understood) return refuse('understood', t('account.deletion.tickToConfirm'));
    await send(destroy, (err) => ({ form: errorMessage(err) }));
  };

  const e = eligibility.data;
  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="delete-account-title" className="crumb current">
          {t('account.deleteAccount')}
        </h1>
      </div>
      <div className="account-form">
        {eligibility.isPending && <p className="muted">{t('common.loading')}</p>}
        {eligibility.isError && !e && (
          <>
            <FormError error={errorMessage(eligibility.error)} />
            <button className="btn" type="button" onClick={() => void eligibility.refetch()} disabled={eligibility.isFetching}>
              {t('account.deletion.retry')}
            </button>
          </>
        )}
        {e && <WhatGoes e={e} />}
        {e && !e.eligible && <Blocked reasons={e.reasons} />}
        {e?.eligible && (
          <form onSubmit={submit} noValidate aria-labelledby="delete-account-title">
            {/* Unseen, it tells password managers which account the password is for. */}
            <input type="email" autoComplete="username" value={me?.email ?? ''} readOnly hidden />
            <SudoField
              sudo={sudo}
              inputRef={refs.password}
              value={password}
              onValue={(v) => {
                setPassword(v);
                setErrors((x) => ({ ...x, password: undefined }));
              }}
              error={errors.password}
            />
            <div className="check-field">
              <label>
                <input
                  ref={refs.understood}
                  type="checkbox"
                  checked={understood}
                  onChange={(ev) => {
                    setUnderstood(ev.target.checked);
                    setErrors((x) => ({ ...x, understood: undefined }));
                  }}
                  aria-invalid={errors.understood ? true : undefined}
                  aria-describedby={errors.understood ? 'deletion-understood-error' : undefined}
                />
                <span>{t('account.deletion.understand')}</span>
              </label>
              {errors.understood && (
                <small id="deletion-understood-error" className="field-error" role="alert">
                  {errors.understood}
                </small>
              )}
            </div>
            <FormError error={errors.form ?? ''} />
            <button className="btn danger" type="submit" disabled={busy} aria-describedby="deletion-final">
              {t('account.deleteAccount')}
            </button>
          </form>
        )}
      </div>
    </section>
  );
}
