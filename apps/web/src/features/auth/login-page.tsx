/**
 * Sign in or create an account with email and password; errors are shown as the server words them. A server that asks
 * for verified addresses gets the mailed code before the account is made (`SignUpCode`). Arriving from an invite link
 * (`?invitation-code=`) opens on "Create account", says so, and the code goes with the sign-up. A passkey signs in
 * from the field's suggestions or its own button (PasskeySignIn).
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { isEmail, looksLikePhoneNumber } from '@haul/shared/plain';
import { errorMessage } from '../../lib/error-message';
import { isApiError } from '../../lib/api-error';
import { Logo } from '../layout/logo';
import { useSiteName } from '../site/site-name';
import { SettingsMenu } from '../layout/settings-menu';
import { needsVerification, sendCode, signIn, signUp } from './auth-api';
import { passwordFits, passwordRule } from './password-rule';
import { LeaveTo, outsideDrive, safeRedirect } from './require-auth';
import { useSessionStore } from './session-store';
import { SignUpCode } from './signup-code';
import { PasskeySignIn } from './passkey-sign-in';
import { ProviderButtons } from '../providers/provider-buttons';
import { keepInvitationCode } from '../activity/invitation-code';
import type { SentCode } from './use-code-step';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';

type Mode = 'signin' | 'signup';

/**
 * What is wrong with a sign-in name (the key of the words), or null: a phone number with its country code, or an
 * address. The numbering plans load with the first phone number typed, not with the page.
 */
export async function signInNameProblem(name: string): Promise<'phone.invalid' | 'phone.invalidEmailOrPhone' | null> {
  if (!looksLikePhoneNumber(name)) return isEmail(name) ? null : 'phone.invalidEmailOrPhone';
  const { normalPhoneNumber } = await import('@haul/shared/phone-numbers');
  return normalPhoneNumber(name) ? null : 'phone.invalid';
}
type Errors = { email?: string; password?: string; form?: string };

/** The signed-out pages' frame: the settings in the corner, a card in the middle. */
export function AuthShell({ children }: { children: ReactNode }) {
  return (
    <main className="login">
      <div className="login-top">
        <SettingsMenu />
      </div>
      {children}
    </main>
  );
}

/** Where the page goes once signed in (`?redirect=`), or nothing: the page leaves on its own when a session appears. */
export function useSignedInRedirect(): ReactNode {
  const [params] = useSearchParams();
  const session = useSessionStore((s) => s.session);
  const target = safeRedirect(params.get('redirect'));
  if (!session) return null;
  return outsideDrive(target) ? <LeaveTo href={target} /> : <Navigate to={target} replace />;
}

export function LoginPage() {
  const { t } = useTranslation();
  const site = useSiteName();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Kept for this tab, so a sign-up after a mailed code or a provider's page still carries it.
  const [invited] = useState(() => (params.get('invitation-code') ? keepInvitationCode(params.get('invitation-code')) : null));
  // An invitation, or the landing page's "Create account" (`?mode=signup`), opens on the sign-up form.
  const [mode, setMode] = useState<Mode>(invited || params.get('mode') === 'signup' ? 'signup' : 'signin');
  const [email, setEmail] = useState(() => (location.state as { email?: string } | null)?.email ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const { busy, submit: send } = useSubmit();
  // Set once the server asked for a verified address: later tries ask for a code at once.
  const [codeNeeded, setCodeNeeded] = useState(false);
  const [sent, setSent] = useState<SentCode | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const leave = useSignedInRedirect();
  const target = safeRedirect(params.get('redirect'));

  if (leave) return leave;

  const refuse = (next: Errors) => {
    setErrors(next);
    if (next.email) emailRef.current?.focus();
    else if (next.password) passwordRef.current?.focus();
  };

  /** Mails the sign-up code; an address already taken is said at the address. */
  const askForCode = async (address: string) => {
    try {
      setSent(await sendCode('REGISTER', address));
    } catch (err) {
      refuse(isApiError(err, 'already_exists') ? { email: errorMessage(err) } : { form: errorMessage(err) });
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const address = email.trim();
    // Sign-in takes the account's phone number too (seed 001: a username that looks like one is one).
    const problem = mode === 'signin' ? await signInNameProblem(address) : isEmail(address) ? null : 'auth.invalidEmail';
    if (problem) return refuse({ email: t(problem) });
    if (mode === 'signup' && !passwordFits(password)) return refuse({ password: passwordRule() });
    await send(
      async () => {
        if (mode === 'signin') await signIn(address, password);
        else if (codeNeeded) await askForCode(address);
        else {
          try {
            await signUp(address, password);
          } catch (err) {
            if (!needsVerification(err)) throw err;
            setCodeNeeded(true);
            await askForCode(address);
            return;
          }
        }
        if (!outsideDrive(target) && useSessionStore.getState().session) void navigate(target, { replace: true });
      },
      (err) => refuse(isApiError(err, 'already_exists') ? { email: errorMessage(err) } : { form: errorMessage(err) }),
    );
  };

  if (sent) {
    return (
      <AuthShell>
        <SignUpCode
          email={email.trim()}
          password={password}
          first={sent}
          onBack={(refused) => {
            setSent(null);
            if (refused) refuse(refused);
          }}
        />
      </AuthShell>
    );
  }

  const switchMode = (m: Mode) => {
    setMode(m);
    setErrors({});
  };

  return (
    <AuthShell>
      <form className="login-card" onSubmit={submit} noValidate aria-labelledby="login-title">
        <Logo />
        <h1 id="login-title">{mode === 'signin' ? t('auth.signInTitle', { site }) : t('auth.signUpTitle', { site })}</h1>
        {invited && (
          <p className="login-invited" role="status">
            {t('activity.invitedNotice')}
          </p>
        )}
        <TextField
          label={mode === 'signin' ? t('phone.emailOrPhone') : t('auth.email')}
          inputRef={emailRef}
          type={mode === 'signin' ? 'text' : 'email'}
          // "webauthn": the browser also suggests this site's passkeys here (conditional UI, passkey-sign-in.tsx).
          autoComplete={mode === 'signin' ? 'username webauthn' : 'username'}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          required
          autoFocus
        />
        <TextField
          label={t('auth.password')}
          inputRef={passwordRef}
          type="password"
          autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          // The rule is told before the first try, not only after a refusal.
          hint={mode === 'signup' ? passwordRule() : undefined}
          error={errors.password}
          required
        />
        {mode === 'signin' && (
          <p className="login-forgot">
            <Link className="link" to={{ pathname: '/forget-password', search: location.search }} state={{ email }}>
              {t('auth.forgotLink')}
            </Link>
          </p>
        )}
        <FormError error={errors.form ?? ''} />
        <button className="btn primary wide" type="submit" disabled={busy}>
          {mode === 'signin' ? t('auth.signIn') : t('auth.signUp')}
        </button>
        {mode === 'signin' && <PasskeySignIn disabled={busy} />}
        {mode === 'signin' && (
          <p className="login-switch">
            <Link className="link" to={{ pathname: '/login/code', search: location.search }} state={{ email }}>
              {t('codeSignIn.link')}
            </Link>
            {' · '}
            <Link className="link" to={{ pathname: '/login/qr', search: location.search }}>
              {t('devices.qrLink')}
            </Link>
          </p>
        )}
        <ProviderButtons redirect={target} />
        <p className="login-switch">
          {mode === 'signin' ? t('auth.noAccount') : t('auth.haveAccount')}{' '}
          <button type="button" className="link" onClick={() => switchMode(mode === 'signin' ? 'signup' : 'signin')}>
            {mode === 'signin' ? t('auth.signUp') : t('auth.signIn')}
          </button>
        </p>
      </form>
    </AuthShell>
  );
}
