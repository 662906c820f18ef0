/**
 * A forgotten password (/forget-password): the address or phone number, then the code mailed or texted there with a
 * new password, which signs in. The page never says whether an account has the address or number: the server answers
 * alike, and so do we. The reset mail's link (`?reset=<code's id>&address=`) opens straight at the code step.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { Logo } from '../layout/logo';
import { resetPassword, sendCode } from './auth-api';
import { CodeStepForm } from './code-step-form';
import { AuthShell, signInNameProblem, useSignedInRedirect } from './login-page';
import { passwordFits, passwordRule } from './password-rule';
import { useCodeStep, type SentCode } from './use-code-step';

/** How long a mailed code lasts (the server's CODE_TTL_SECONDS): a link's code was sent at most this long ago. */
const CODE_TTL_SECONDS = 600;

export function ForgetPasswordPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  // From the mail: the code's id and the address it went to (the code itself only ever in the mail).
  const mailed = params.get('reset') && params.get('address') ? { id: params.get('reset')!, address: params.get('address')! } : null;
  const [email, setEmail] = useState(() => mailed?.address ?? (location.state as { email?: string } | null)?.email ?? '');
  const [emailError, setEmailError] = useState('');
  const { busy, error: formError, setError: setFormError, submit: send } = useSubmit();
  const [sent, setSent] = useState<SentCode | null>(() => (mailed ? { verification_id: mailed.id, expires_in: CODE_TTL_SECONDS } : null));
  const [fromMail, setFromMail] = useState(mailed !== null);
  const emailRef = useRef<HTMLInputElement>(null);
  const leave = useSignedInRedirect();
  if (leave) return leave;

  const signInLink = (
    <p className="login-switch">
      <Link className="link" to={{ pathname: '/login', search: location.search }}>
        {t('auth.backToSignIn')}
      </Link>
    </p>
  );

  if (sent) {
    return (
      <AuthShell>
        <ResetStep
          email={email.trim()}
          first={sent}
          fromMail={fromMail}
          onOtherAddress={() => {
            setSent(null);
            setFromMail(false);
          }}
        >
          {signInLink}
        </ResetStep>
      </AuthShell>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setEmailError('');
    setFormError('');
    const problem = await signInNameProblem(email.trim());
    if (problem) {
      setEmailError(t(problem));
      emailRef.current?.focus();
      return;
    }
    await send(
      async () => setSent(await sendCode('PASSWORD_RESET', email.trim())),
      (err) => {
        if (!isApiError(err, 'invalid_argument')) return errorMessage(err);
        setEmailError(errorMessage(err));
        emailRef.current?.focus();
      },
    );
  };

  return (
    <AuthShell>
      <form className="login-card" onSubmit={submit} noValidate aria-labelledby="forgot-title" aria-describedby="forgot-intro">
        <Logo />
        <h1 id="forgot-title">{t('auth.forgotTitle')}</h1>
        <p id="forgot-intro" className="login-notice">
          {t('phone.forgotIntro')}
        </p>
        <TextField
          label={t('phone.emailOrPhone')}
          inputRef={emailRef}
          type="text"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={emailError}
          required
          autoFocus
        />
        <FormError error={formError} />
        <button className="btn primary wide" type="submit" disabled={busy}>
          {t('auth.sendCode')}
        </button>
        {signInLink}
      </form>
    </AuthShell>
  );
}

interface ResetStepProps {
  email: string;
  first: SentCode;
  /** Opened from the mail's link: the code was sent some time ago, by whoever asked. */
  fromMail: boolean;
  onOtherAddress: () => void;
  children: ReactNode;
}

/** The mailed code and the new password; success signs in, and the page leaves for the drive. */
function ResetStep({ email, first, fromMail, onOtherAddress, children }: ResetStepProps) {
  const { t } = useTranslation();
  const step = useCodeStep('PASSWORD_RESET', email, first);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState('');
  const passwordRef = useRef<HTMLInputElement>(null);

  const refusePassword = (message: string) => {
    setPasswordError(message);
    passwordRef.current?.focus();
  };
  const ready = () => {
    setPasswordError('');
    if (passwordFits(password)) return true;
    refusePassword(passwordRule());
    return false;
  };
  const reset = async (token: string) => {
    try {
      await resetPassword(token, password, email);
      toast.success(t('auth.passwordReset'));
    } catch (err) {
      if (isApiError(err, 'invalid_grant')) step.tokenRefused(err);
      else if (isApiError(err, 'invalid_argument')) refusePassword(errorMessage(err));
      else throw err;
    }
  };
  const sent = `${t(step.resent ? 'auth.codeResentIfAccount' : 'auth.codeSentIfAccount', { email })} ${t('auth.codeLasts', { count: step.minutes })}`;

  return (
    <CodeStepForm
      step={step}
      title={t('auth.forgotTitle')}
      notice={step.resent || !fromMail ? sent : t('auth.codeFromMail', { email })}
      submitLabel={t('auth.setPasswordAndSignIn')}
      ready={ready}
      onToken={reset}
      back={{ label: t('auth.otherAddress'), onClick: onOtherAddress }}
      fields={
        <TextField
          label={t('auth.newPassword')}
          inputRef={passwordRef}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setPasswordError('');
          }}
          hint={passwordRule()}
          error={passwordError}
          required
        />
      }
    >
      {children}
    </CodeStepForm>
  );
}
