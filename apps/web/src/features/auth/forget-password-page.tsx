/**
 * A forgotten password (/forget-password): the address or phone number, then the code mailed or texted there with a
 * new password, which signs in. The page never says whether an account has the address or number: the server answers
 * alike, and so do we. The reset mail's link (`?reset=<code's id>&address=`) opens straight at the code step.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { TextField } from '../../components/text-field';
import { AddressStep, BackToSignIn } from './address-step';
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
  const [sent, setSent] = useState<SentCode | null>(() => (mailed ? { verification_id: mailed.id, expires_in: CODE_TTL_SECONDS } : null));
  const [fromMail, setFromMail] = useState(mailed !== null);
  const leave = useSignedInRedirect();
  if (leave) return leave;

  return (
    <AuthShell>
      {sent ? (
        <ResetStep
          email={email.trim()}
          first={sent}
          fromMail={fromMail}
          onOtherAddress={() => {
            setSent(null);
            setFromMail(false);
          }}
        />
      ) : (
        <AddressStep
          title={t('auth.forgotTitle')}
          intro={t('phone.forgotIntro')}
          label={t('phone.emailOrPhone')}
          type="text"
          value={email}
          onChange={setEmail}
          check={async (address) => {
            const problem = await signInNameProblem(address);
            return problem && t(problem);
          }}
          send={(address) => sendCode('PASSWORD_RESET', address)}
          onSent={setSent}
          refusedAtField={(err) => isApiError(err, 'invalid_argument')}
        />
      )}
    </AuthShell>
  );
}

interface ResetStepProps {
  email: string;
  first: SentCode;
  /** Opened from the mail's link: the code was sent some time ago, by whoever asked. */
  fromMail: boolean;
  onOtherAddress: () => void;
}

/** The mailed code and the new password; success signs in, and the page leaves for the drive. */
function ResetStep({ email, first, fromMail, onOtherAddress }: ResetStepProps) {
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
      <BackToSignIn />
    </CodeStepForm>
  );
}
