/**
 * Change password (/account/password): the current password, or a code mailed to the account (the only way for an
 * account a sign-in provider made, which sets its first password here), earns a sudo token, which sets the new one.
 * Every other session ends and this one stays, which the page says before the person confirms.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { isApiError, isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { TextField } from '../../components/text-field';
import { getMe, setPassword } from '../auth/auth-api';
import { passwordFits, passwordRule } from '../auth/password-rule';
import { useSudo } from './use-sudo';
import { SudoField } from './sudo-field';

type Field = 'current' | 'next' | 'again';
type Errors = Partial<Record<Field | 'form', string>>;

export function ChangePasswordPage() {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<Field, string>>({ current: '', next: '', again: '' });
  const { busy, error: errors, setError: setErrors, submit: send } = useSubmit<Errors>({});
  const queryClient = useQueryClient();
  const { data: me } = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const sudo = useSudo();
  const refs = { current: useRef<HTMLInputElement>(null), next: useRef<HTMLInputElement>(null), again: useRef<HTMLInputElement>(null) };

  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    if (field === 'current') sudo.forget();
  };

  const refuse = (field: Field | 'form', message: string) => {
    setErrors({ [field]: message });
    if (field !== 'form') refs[field].current?.focus();
  };

  const change = async (): Promise<void> => {
    let token: string;
    try {
      token = await sudo.token(values.current);
    } catch (err) {
      // A wrong password, or too many of them: about the current password, shown there.
      if (isPasswordRefusal(err)) return refuse('current', errorMessage(err));
      throw err;
    }
    try {
      await setPassword(token, values.next);
    } catch (err) {
      if (isApiError(err, 'invalid_argument')) return refuse('next', errorMessage(err));
      if (!isApiError(err, 'invalid_grant')) throw err;
      // The confirmation ran out: confirm again with the password still typed, once (a code is spent: ask anew).
      sudo.forget();
      if (sudo.mode === 'code') throw err;
      await setPassword(await sudo.token(values.current), values.next);
    }
    sudo.forget();
    setValues({ current: '', next: '', again: '' });
    // A first password: the account has one now (the code gives way to it; the drive's request to set one goes).
    void queryClient.invalidateQueries({ queryKey: ['me'] });
    void queryClient.invalidateQueries({ queryKey: ['linkedProviders'] });
    toast.success(t('account.passwordChanged'));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const missing = sudo.missing(values.current);
    if (missing) return refuse('current', t(missing));
    if (!passwordFits(values.next)) return refuse('next', passwordRule());
    if (values.again !== values.next) return refuse('again', t('account.passwordsDiffer'));
    await send(change, (err) => ({ form: errorMessage(err) }));
  };

  return (
    <section className="page">
      <div className="toolbar">
        <h1 id="change-password-title" className="crumb current">
          {t('account.changePassword')}
        </h1>
      </div>
      <form className="account-form" onSubmit={submit} noValidate aria-labelledby="change-password-title">
        <p id="password-change-effect" className="account-notice">
          {t('account.otherSessionsEnd')}
        </p>
        {/* Unseen, it tells password managers which account the new password belongs to. */}
        <input type="email" autoComplete="username" value={me?.email ?? ''} readOnly hidden />
        <SudoField sudo={sudo} inputRef={refs.current} value={values.current} onValue={(v) => set('current', v)} error={errors.current} autoFocus />
        <TextField
          label={t('auth.newPassword')}
          inputRef={refs.next}
          type="password"
          autoComplete="new-password"
          value={values.next}
          onChange={(e) => set('next', e.target.value)}
          hint={passwordRule()}
          error={errors.next}
          required
        />
        <TextField
          label={t('account.repeatPassword')}
          inputRef={refs.again}
          type="password"
          autoComplete="new-password"
          value={values.again}
          onChange={(e) => set('again', e.target.value)}
          error={errors.again}
          required
        />
        <FormError error={errors.form ?? ''} />
        <button className="btn primary" type="submit" disabled={busy} aria-describedby="password-change-effect">
          {t('account.changePassword')}
        </button>
      </form>
    </section>
  );
}
