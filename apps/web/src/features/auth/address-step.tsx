/**
 * The card that asks where to send a code (a forgotten password, a sign-in by code): one address field, checked before
 * anything is sent, "Send code", and the way back to sign in. What is sent, and which refusals belong at the field,
 * are the page's; the code step that follows is CodeStepForm's.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { Logo } from '../layout/logo';
import type { SentCode } from './use-code-step';

interface Props {
  title: string;
  intro: string;
  label: string;
  /** `email` where only an address will do; `text` where a phone number will too. */
  type: 'email' | 'text';
  value: string;
  onChange: (address: string) => void;
  /** The words refusing the trimmed address before anything is sent, or null when it may be sent. */
  check: (address: string) => string | null | Promise<string | null>;
  /** Sends the code to the trimmed address. */
  send: (address: string) => Promise<SentCode>;
  onSent: (sent: SentCode) => void;
  /** Which of the server's refusals are about the address, said at the field rather than under the form. */
  refusedAtField?: (err: unknown) => boolean;
}

export function AddressStep({ title, intro, label, type, value, onChange, check, send, onSent, refusedAtField }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const introId = useId();
  const [fieldError, setFieldError] = useState('');
  const { busy, error, setError, submit } = useSubmit();
  const inputRef = useRef<HTMLInputElement>(null);

  const refuse = (message: string) => {
    setFieldError(message);
    inputRef.current?.focus();
  };
  const sendCode = async (e: FormEvent) => {
    e.preventDefault();
    setFieldError('');
    setError('');
    const address = value.trim();
    const problem = await check(address);
    if (problem) return refuse(problem);
    await submit(
      async () => onSent(await send(address)),
      (err) => {
        if (!refusedAtField?.(err)) return errorMessage(err);
        refuse(errorMessage(err));
      },
    );
  };

  return (
    <form className="login-card" onSubmit={sendCode} noValidate aria-labelledby={titleId} aria-describedby={introId}>
      <Logo />
      <h1 id={titleId}>{title}</h1>
      <p id={introId} className="login-notice">
        {intro}
      </p>
      <TextField
        label={label}
        inputRef={inputRef}
        type={type}
        autoComplete="username"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        error={fieldError}
        required
        autoFocus
      />
      <FormError error={error} />
      <button className="btn primary wide" type="submit" disabled={busy}>
        {t('auth.sendCode')}
      </button>
      <BackToSignIn />
    </form>
  );
}

/** "Back to sign in", keeping where the person was going (the address's query). */
export function BackToSignIn() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <p className="login-switch">
      <Link className="link" to={{ pathname: '/login', search: location.search }}>
        {t('auth.backToSignIn')}
      </Link>
    </p>
  );
}
