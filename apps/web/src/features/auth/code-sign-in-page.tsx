/**
 * Sign in with a code (/login/code): the address or phone number, then the 6-digit code sent there: mailed
 * (REGISTER_SIGN_IN: an address no account has becomes one where sign-ups are open) or texted to a number an account
 * has bound (SIGN_IN: a number never makes an account). The page words the sending alike whether or not an account
 * has the address or number, as the server answers alike. Two-factor sign-in asks its code as after a password.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { looksLikePhoneNumber } from '@haul/shared/plain';
import { isApiError } from '../../lib/api-error';
import { AddressStep, BackToSignIn } from './address-step';
import { sendCode, signInWithCode } from './auth-api';
import { CodeStepForm } from './code-step-form';
import { AuthShell, signInNameProblem, useSignedInRedirect } from './login-page';
import { useCodeStep, type SentCode } from './use-code-step';

/** A number is texted a SIGN_IN code (it makes no account); an address is mailed a REGISTER_SIGN_IN one. */
const usageFor = (address: string) => (looksLikePhoneNumber(address) ? 'SIGN_IN' : 'REGISTER_SIGN_IN');

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
          label={t('phone.emailOrPhone')}
          type="text"
          value={email}
          onChange={setEmail}
          check={async (address) => {
            const problem = await signInNameProblem(address);
            return problem && t(problem);
          }}
          send={(address) => sendCode(usageFor(address), address)}
          onSent={setSent}
          refusedAtField={(err) => isApiError(err, 'invalid_argument')}
        />
      )}
    </AuthShell>
  );
}

/** The mailed code; a right one signs in, and the page leaves for where the person was going. */
function CodeStep({ email, first, onOtherAddress }: { email: string; first: SentCode; onOtherAddress: () => void }) {
  const { t } = useTranslation();
  const step = useCodeStep(usageFor(email), email, first);
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
