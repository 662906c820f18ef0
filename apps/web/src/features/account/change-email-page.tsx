/**
 * Change e-mail (/account/bind-email, the seeds' route): the new address and the current password (a sudo token,
 * checked before any mail goes out), then the 6-digit code mailed to the new address. The old address is told by
 * the server; the page shows the new one once it is made.
 */
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { isEmail } from '@haul/shared';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { changeEmail, checkCode, getMe, sendCode } from '../auth/auth-api';
import { CodeField } from '../auth/code-field';
import { CODE_LENGTH } from '../auth/code-text';
import { useFormRun } from './use-form-run';
import { useSudo } from './use-sudo';

export function ChangeEmailPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const sudo = useSudo();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<{ id: string; to: string } | null>(null);
  const { busy, errors, setErrors, run } = useFormRun<'email' | 'password' | 'code'>();

  const send = (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    if (!isEmail(address)) return setErrors({ email: t('auth.invalidEmail') });
    if (!password) return setErrors({ password: t('account.enterCurrent') });
    void run(async () => {
      try {
        await sudo.token(password);
      } catch (err) {
        if (isApiError(err, 'invalid_grant') || isApiError(err, 'too_many_requests')) return setErrors({ password: errorMessage(err) });
        throw err;
      }
      try {
        const code = await sendCode('EMAIL_ADDRESS_CHANGE', address);
        setSent({ id: code.verification_id, to: address });
      } catch (err) {
        if (isApiError(err, 'already_exists') || isApiError(err, 'invalid_argument')) return setErrors({ email: errorMessage(err) });
        throw err;
      }
    });
  };

  const change = (e: FormEvent) => {
    e.preventDefault();
    if (!sent) return;
    if (code.length !== CODE_LENGTH) return setErrors({ code: t('auth.codeIncomplete') });
    void run(async () => {
      let token: string;
      try {
        token = await checkCode(sent.id, code);
      } catch (err) {
        if (isApiError(err, 'invalid_grant')) return setErrors({ code: errorMessage(err) });
        throw err;
      }
      const user = await changeEmail(await sudo.token(password), token, sent.to);
      sudo.forget();
      queryClient.setQueryData(['me'], user);
      toast.success(t('account.emailChanged', { email: user.email }));
      setSent(null);
      setEmail('');
      setPassword('');
      setCode('');
    });
  };

  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="change-email-title" className="crumb current">
          {t('account.changeEmail')}
        </h1>
      </div>
      {sent ? (
        <form className="account-form" onSubmit={change} noValidate aria-labelledby="change-email-title">
          <p className="account-notice" role="status">
            {t('account.emailCodeSent', { email: sent.to })}
          </p>
          <CodeField value={code} onChange={setCode} error={errors.code} />
          <FormError error={errors.form ?? ''} />
          <div className="dialog-actions start">
            <button className="btn" type="button" onClick={() => setSent(null)}>
              {t('account.back')}
            </button>
            <button className="btn primary" type="submit" disabled={busy}>
              {t('account.changeEmail')}
            </button>
          </div>
        </form>
      ) : (
        <form className="account-form" onSubmit={send} noValidate aria-labelledby="change-email-title">
          <p className="account-notice">{t('account.emailNow', { email: me?.email ?? '' })}</p>
          <TextField label={t('account.newEmail')} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} required autoFocus />
          <TextField
            label={t('account.currentPassword')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              sudo.forget();
            }}
            error={errors.password}
            required
          />
          <FormError error={errors.form ?? ''} />
          <button className="btn primary" type="submit" disabled={busy}>
            {t('account.sendEmailCode')}
          </button>
        </form>
      )}
    </section>
  );
}
