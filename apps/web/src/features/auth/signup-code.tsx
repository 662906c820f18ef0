/** A verified sign-up's second step: the code mailed to the address, then the account is made with its token. */
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { Logo } from '../layout/logo';
import { signUp } from './auth-api';
import { CodeField, ResendButton } from './code-field';
import { useCodeStep, type SentCode } from './use-code-step';

interface Props {
  email: string;
  password: string;
  first: SentCode;
  /** Back to the form; with what the server refused there (the address taken, the password), to show at its field. */
  onBack: (refused?: { email?: string; password?: string }) => void;
}

export function SignUpCode({ email, password, first, onBack }: Props) {
  const { t } = useTranslation();
  const step = useCodeStep('REGISTER', email, first);
  const noticeId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (step.busy) return;
    void step.run(async () => {
      const token = await step.verify();
      if (!token) return;
      try {
        // Success signs in; the page leaves for the drive when the session appears.
        await signUp(email, password, token);
      } catch (err) {
        if (isApiError(err, 'invalid_grant')) step.tokenRefused(err);
        else if (isApiError(err, 'already_exists')) onBack({ email: errorMessage(err) });
        else if (isApiError(err, 'invalid_argument')) onBack({ password: errorMessage(err) });
        else throw err;
      }
    });
  };

  return (
    <form className="login-card" onSubmit={submit} noValidate aria-labelledby="verify-title">
      <Logo />
      <h1 id="verify-title">{t('auth.verifyTitle')}</h1>
      <p id={noticeId} className="login-notice" role="status">
        {t(step.resent ? 'auth.codeResent' : 'auth.codeSent', { email })} {t('auth.codeLasts', { count: step.minutes })}
      </p>
      <CodeField value={step.code} onChange={step.setCode} error={step.codeError} describedBy={noticeId} inputRef={step.codeRef} />
      <FormError error={step.formError} />
      <button className="btn primary wide" type="submit" disabled={step.busy}>
        {t('auth.verifyAndCreate')}
      </button>
      <p className="login-switch">
        <ResendButton left={step.secondsLeft} busy={step.busy} onClick={() => void step.resend()} />
      </p>
      <p className="login-switch">
        <button type="button" className="link" onClick={() => onBack()}>
          {t('auth.changeAddress')}
        </button>
      </p>
    </form>
  );
}
