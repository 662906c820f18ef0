/**
 * Sign in with a mailed code (/login/code): the address, then the 6-digit code sent there (REGISTER_SIGN_IN: an
 * address no account has becomes one where sign-ups are open). The page words the sending alike whether or not an
 * account has the address, as the server answers alike. Two-factor sign-in asks its code as after a password.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { isEmail } from '@haul/shared/plain';
import { isApiError } from '../../lib/api-error';
import { AddressStep, BackToSignIn } from './address-step';
import { sendCode, signInWithCode } from './auth-api';
import { CodeStepForm } from './code-step-form';
import { AuthShell, useSignedInRedirect } from './login-page';
import { useCodeStep, type SentCode } from './use-code-step';

export function CodeSignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [email, setEmail] = useState(() => (location.state as { email?: string } | null)?.email ?? '');
  const [sent, setSent] = useState<SentCode | null>(null);
  const leave = useSignedInRedirect();
  if (leave) return leave;

  return (
    <AuthShell>
      {sent ? (
        <CodeStep email={email.trim()} first={sent} onOtherAddress={() => setSent(null)} />
      ) : (
        <AddressStep
          title={t('codeSignIn.title')}
          intro={t('codeSignIn.intro')}
          label={t('auth.email')}
          type="email"
          value={email}
          onChange={setEmail}
          check={(address) => (isEmail(address) ? null : t('auth.invalidEmail'))}
          send={(address) => sendCode('REGISTER_SIGN_IN', address)}
          onSent={setSent}
        />
      )}
    </AuthShell>
  );
}

/** The mailed code; a right one signs in, and the page leaves for where the person was going. */
function CodeStep({ email, first, onOtherAddress }: { email: string; first: SentCode; onOtherAddress: () => void }) {
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
      <BackToSignIn />
    </CodeStepForm>
  );
}
