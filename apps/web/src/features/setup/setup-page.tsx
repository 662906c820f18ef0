/**
 * First-run setup (/setup): on a fresh install the first visitor creates the operator's account; then, signed in as
 * that operator, chooses who may sign up and a new account's storage, sends a test message through the mail, and
 * (when payments are configured) puts a starter catalogue on sale. Everything here can be changed later in the
 * console's Settings. Any other visitor finds sign-in here once the server is set up.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Logo } from '../layout/logo';
import { TextField } from '../../components/text-field';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { errorMessage } from '../../lib/error-message';
import { isEmail } from '@haul/shared/plain';
import { passwordFits, passwordRule } from '../auth/password-rule';
import { AuthShell } from '../auth/login-page';
import { useSessionStore } from '../auth/session-store';
import { createOperator, SETUP_KEY, useSetupRequired } from './setup-api';
import { SetupChoices } from './setup-choices';
import './setup.css';

function OperatorForm({ onMade }: { onMade: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const { busy, error, submit } = useSubmit();

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const wrong = { email: isEmail(email.trim()) ? undefined : t('setup.badEmail'), password: passwordFits(password) ? undefined : passwordRule() };
    setErrors(wrong);
    if (wrong.email || wrong.password) return;
    await submit(async () => {
      await createOperator(email.trim(), password);
      onMade();
    }, errorMessage);
  };

  return (
    <form className="login-card setup-card" onSubmit={create} noValidate aria-labelledby="setup-title">
      <Logo />
      <h1 id="setup-title">{t('setup.title')}</h1>
      <p className="login-notice">{t('setup.intro')}</p>
      <TextField label={t('auth.email')} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} required autoFocus />
      <TextField
        label={t('auth.password')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        hint={passwordRule()}
        error={errors.password}
        required
      />
      <FormError error={error} />
      <button className="btn primary wide" type="submit" disabled={busy}>
        {t('setup.createOperator')}
      </button>
    </form>
  );
}

export function SetupPage() {
  const queryClient = useQueryClient();
  const required = useSetupRequired();
  const session = useSessionStore((s) => s.session);
  // Set once this visit made the operator's account: the choices follow, though setup is no longer required.
  const [made, setMade] = useState(false);
  if (made && session) return <SetupChoices />;
  if (required.isPending) return null;
  if (!required.data) return <Navigate to={session ? '/all' : '/login'} replace />;
  return (
    <AuthShell>
      <OperatorForm
        onMade={() => {
          setMade(true);
          queryClient.setQueryData(SETUP_KEY, false);
        }}
      />
    </AuthShell>
  );
}
