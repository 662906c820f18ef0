/** Sign in or create an account with email and password; errors are shown as the server words them. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { isEmail, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@haul/shared';
import { errorMessage } from '../../lib/error-message';
import { Logo } from '../layout/logo';
import { SettingsMenu } from '../layout/settings-menu';
import { signIn, signUp } from './auth-api';
import { LeaveTo, outsideDrive, safeRedirect } from './require-auth';
import { useSessionStore } from './session-store';
import { FormError } from '../../components/form-error';

type Mode = 'signin' | 'signup';

export function LoginPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSessionStore((s) => s.session);
  const [mode, setMode] = useState<Mode>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const target = safeRedirect(params.get('redirect'));

  if (session) return outsideDrive(target) ? <LeaveTo href={target} /> : <Navigate to={target} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (!isEmail(email.trim())) return setError(t('auth.invalidEmail'));
    if (mode === 'signup' && (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH)) {
      return setError(t('auth.passwordLength', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }));
    }
    setBusy(true);
    try {
      await (mode === 'signin' ? signIn(email.trim(), password) : signUp(email.trim(), password));
      if (!outsideDrive(target)) navigate(target, { replace: true });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const switchMode = (m: Mode) => {
    setMode(m);
    setError('');
  };

  return (
    <main className="login">
      <div className="login-top">
        <SettingsMenu />
      </div>
      <form className="login-card" onSubmit={submit} noValidate aria-labelledby="login-title">
        <Logo />
        <h1 id="login-title">{mode === 'signin' ? t('auth.signInTitle') : t('auth.signUpTitle')}</h1>
        <label className="field">
          <span>{t('auth.email')}</span>
          <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus />
        </label>
        <label className="field">
          <span>{t('auth.password')}</span>
          <input
            type="password"
            autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            aria-describedby={mode === 'signup' ? 'password-rule' : undefined}
          />
          {/* The rule is told before the first try, not only after a refusal. */}
          {mode === 'signup' && (
            <small id="password-rule" className="muted">
              {t('auth.passwordLength', { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH })}
            </small>
          )}
        </label>
        <FormError error={error} />
        <button className="btn primary wide" type="submit" disabled={busy}>
          {mode === 'signin' ? t('auth.signIn') : t('auth.signUp')}
        </button>
        <p className="login-switch">
          {mode === 'signin' ? t('auth.noAccount') : t('auth.haveAccount')}{' '}
          <button type="button" className="link" onClick={() => switchMode(mode === 'signin' ? 'signup' : 'signin')}>
            {mode === 'signin' ? t('auth.signUp') : t('auth.signIn')}
          </button>
        </p>
      </form>
    </main>
  );
}
