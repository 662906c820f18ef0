/**
 * Sign in with a mailed code (/login/code): the address, then the 6-digit code sent there (REGISTER_SIGN_IN: an
 * address no account has becomes one where sign-ups are open). The page words the sending alike whether or not an
 * account has the address, as the server answers alike. Two-factor sign-in asks its code as after a password.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { isEmail } from '@haul/shared/plain';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { Logo } from '../layout/logo';
import { sendCode, signInWithCode } from './auth-api';
import { CodeStepForm } from './code-step-form';
import { AuthShell, useSignedInRedirect } from './login-page';
import { useCodeStep, type SentCode } from './use-code-step';

export function CodeSignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [email, setEmail] = useState(() => (location.state as { email?: string } | null)?.email ?? '');
  const [emailError, setEmailError] = useState('');
  const [sent, setSent] = useState<SentCode | null>(null);
  const { busy, error, setError, submit } = useSubmit();
  const emailRef = useRef<HTMLInputElement>(null);
  const leave = useSignedInRedirect();
  if (leave) return leave;

  const back = (
    <p className="login-switch">
      <Link className="link" to={{ pathname: '/login', search: location.search }}>
        {t('auth.backToSignIn')}
      </Link>
    </p>
  );

  if (sent) {
    return (
      <AuthShell>
        <CodeStep email={email.trim()} first={sent} onOtherAddress={() => setSent(null)}>
          {back}
        </CodeStep>
      </AuthShell>
    );
  }

  const send = async (e: FormEvent) => {
    e.preventDefault();
    setEmailError('');
    setError('');
    if (!isEmail(email.trim())) {
      setEmailError(t('auth.invalidEmail'));
      emailRef.current?.focus();
      return;
    }
    await submit(async () => setSent(await sendCode('REGISTER_SIGN_IN', email.trim())), errorMessage);
  };

  return (
    <AuthShell>
      <form className="login-card" onSubmit={send} noValidate aria-labelledby="code-sign-in-title">
        <Logo />
        <h1 id="code-sign-in-title">{t('codeSignIn.title')}</h1>
        <p className="login-notice">{t('codeSignIn.intro')}</p>
        <TextField
          label={t('auth.email')}
          inputRef={emailRef}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={emailError}
          required
          autoFocus
        />
        <FormError error={error} />
        <button className="btn primary wide" type="submit" disabled={busy}>
          {t('auth.sendCode')}
        </button>
        {back}
      </form>
    </AuthShell>
  );
}

/** The mailed code; a right one signs in, and the page leaves for where the person was going. */
function CodeStep({ email, first, onOtherAddress, children }: { email: string; first: SentCode; onOtherAddress: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  const step = useCodeStep('REGISTER_SIGN_IN', email, first);
  const signIn = async (token: string) => {
    try {
      await signInWithCode(token, email);
    } catch (err) {
      if (isApiError(err, 'invalid_grant')) step.tokenRefused(err);
      else throw err;
    }
  };
  return (
    <CodeStepForm
      step={step}
      title={t('codeSignIn.title')}
      notice={`${t(step.resent ? 'codeSignIn.resent' : 'codeSignIn.sent', { email })} ${t('auth.codeLasts', { count: step.minutes })}`}
      submitLabel={t('auth.signIn')}
      onToken={signIn}
      back={{ label: t('auth.otherAddress'), onClick: onOtherAddress }}
    >
      {children}
    </CodeStepForm>
  );
}
