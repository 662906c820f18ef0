/**
 * The shape both contact pages share (/account/bind-email, /account/bind-phone): the new address or number and the
 * current password or a code to the account's own address (a sudo token, checked before any code goes to the new
 * one, so a wrong password costs no code), then the
 * 6-digit code sent there, then the account as the server made it. Each page says what differs in a `ContactKind`.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { UserInfo } from '@haul/shared';
import { isApiError, isPasswordRefusal } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { checkCode } from '../auth/auth-api';
import { CodeField } from '../auth/code-field';
import { CODE_LENGTH } from '../auth/code-text';
import { useFormRun } from './use-form-run';
import { useSudo } from './use-sudo';
import { SudoField } from './sudo-field';

export interface ContactKind {
  /** The page's heading, also the final button. */
  title: string;
  /** What the account has now, above the form. */
  now: ReactNode;
  field: { label: string; type: 'email' | 'tel'; autoComplete: string; hint?: string };
  /** The value to send, or null with `invalid` shown at the field. */
  check: (typed: string) => string | null;
  invalid: string;
  codeIncomplete: string;
  sendCode: (to: string) => Promise<{ verification_id: string }>;
  sentNotice: (to: string) => string;
  change: (sudoToken: string, verificationToken: string, to: string) => Promise<UserInfo>;
  changed: (user: UserInfo) => string;
  /** Another action that takes the password alone (removing the phone number). */
  secondary?: { label: string; run: (sudoToken: string) => Promise<UserInfo>; done: string };
}

export function ContactChangeForm({ kind, id }: { kind: ContactKind; id: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sudo = useSudo();
  const [value, setValue] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<{ id: string; to: string } | null>(null);
  const { busy, errors, setErrors, run } = useFormRun<'value' | 'password' | 'code'>();
  const titleId = `${id}-title`;

  /** A sudo token for the typed password; false when it was refused (said at the password). */
  const confirmed = async (): Promise<string | false> => {
    const missing = sudo.missing(password);
    if (missing) return (setErrors({ password: t(missing) }), false);
    try {
      return await sudo.token(password);
    } catch (err) {
      if (isPasswordRefusal(err)) return (setErrors({ password: errorMessage(err) }), false);
      throw err;
    }
  };

  const done = (user: UserInfo, message: string) => {
    sudo.forget();
    queryClient.setQueryData(['me'], user);
    toast.success(message);
    setSent(null);
    setValue('');
    setPassword('');
    setCode('');
  };

  const send = (e: FormEvent) => {
    e.preventDefault();
    const to = kind.check(value);
    if (!to) return setErrors({ value: kind.invalid });
    const missing = sudo.missing(password);
    if (missing) return setErrors({ password: t(missing) });
    void run(async () => {
      if (!(await confirmed())) return;
      try {
        const code = await kind.sendCode(to);
        setSent({ id: code.verification_id, to });
      } catch (err) {
        if (isApiError(err, 'already_exists') || isApiError(err, 'invalid_argument')) return setErrors({ value: errorMessage(err) });
        throw err;
      }
    });
  };

  const secondary = () =>
    void run(async () => {
      const token = await confirmed();
      if (token) done(await kind.secondary!.run(token), kind.secondary!.done);
    });

  const change = (e: FormEvent) => {
    e.preventDefault();
    if (!sent) return;
    if (code.length !== CODE_LENGTH) return setErrors({ code: kind.codeIncomplete });
    void run(async () => {
      let token: string;
      try {
        token = await checkCode(sent.id, code);
      } catch (err) {
        if (isApiError(err, 'invalid_grant')) return setErrors({ code: errorMessage(err) });
        throw err;
      }
      const user = await kind.change(await sudo.token(password), token, sent.to);
      done(user, kind.changed(user));
    });
  };

  return (
    <section className="page">
      <div className="toolbar">
        <h1 id={titleId} className="crumb current">
          {kind.title}
        </h1>
      </div>
      {sent ? (
        <form className="account-form" onSubmit={change} noValidate aria-labelledby={titleId}>
          <p className="account-notice" role="status">
            {kind.sentNotice(sent.to)}
          </p>
          <CodeField value={code} onChange={setCode} error={errors.code} />
          <FormError error={errors.form ?? ''} />
          <div className="dialog-actions start">
            <button className="btn" type="button" onClick={() => setSent(null)}>
              {t('account.back')}
            </button>
            <button className="btn primary" type="submit" disabled={busy}>
              {kind.title}
            </button>
          </div>
        </form>
      ) : (
        <form className="account-form" onSubmit={send} noValidate aria-labelledby={titleId}>
          <p className="account-notice">{kind.now}</p>
          <TextField
            label={kind.field.label}
            type={kind.field.type}
            autoComplete={kind.field.autoComplete}
            hint={kind.field.hint}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            error={errors.value}
            required
            autoFocus
          />
          <SudoField sudo={sudo} value={password} onValue={setPassword} error={errors.password} />
          <FormError error={errors.form ?? ''} />
          <div className="dialog-actions start">
            <button className="btn primary" type="submit" disabled={busy}>
              {t('account.sendEmailCode')}
            </button>
            {kind.secondary && (
              <button className="btn" type="button" disabled={busy} onClick={secondary}>
                {kind.secondary.label}
              </button>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
