/** A verified sign-up's second step: the code mailed to the address, then the account is made with its token. */
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { signUp } from './auth-api';
import { CodeStepForm } from './code-step-form';
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
  const create = async (token: string) => {
    try {
      // Success signs in; the page leaves for the drive when the session appears.
      await signUp(email, password, token);
    } catch (err) {
      if (isApiError(err, 'invalid_grant')) step.tokenRefused(err);
      else if (isApiError(err, 'already_exists')) onBack({ email: errorMessage(err) });
      else if (isApiError(err, 'invalid_argument')) onBack({ password: errorMessage(err) });
      else throw err;
    }
  };
  return (
    <CodeStepForm
      step={step}
      title={t('auth.verifyTitle')}
      notice={`${t(step.resent ? 'auth.codeResent' : 'auth.codeSent', { email })} ${t('auth.codeLasts', { count: step.minutes })}`}
      submitLabel={t('auth.verifyAndCreate')}
      onToken={create}
      back={{ label: t('auth.changeAddress'), onClick: () => onBack() }}
    />
  );
}
