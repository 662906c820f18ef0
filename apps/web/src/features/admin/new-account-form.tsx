/**
 * "New account" on the accounts page: the address, a first password (the sign-up rule told up front), an optional
 * name and the operator role. Made whatever the registration setting; the new account's page opens after.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { isEmail } from '@haul/shared/plain';
import { errorMessage } from '../../lib/error-message';
import { isApiError } from '../../lib/api-error';
import { FormError } from '../../components/form-error';
import { TextField } from '../../components/text-field';
import { useSubmit } from '../../components/use-submit';
import { passwordFits, passwordRule } from '../auth/password-rule';
import { ADMIN_KEY } from './admin-api';
import { createAccount } from './admin-accounts-api';
import './admin-accounts.css';

type Errors = { email?: string; password?: string; form?: string };

export function NewAccountForm({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [isAdmin, setIsAdmin] = useState(false);
  const { busy, error, setError, submit } = useSubmit<Errors>({});

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim();
    const local: Errors = {
      email: isEmail(address.toLowerCase()) ? undefined : t('adminAccounts.create.badEmail'),
      password: passwordFits(password) ? undefined : passwordRule(),
    };
    if (local.email || local.password) return setError(local);
    await submit(
      async () => {
        const user = await createAccount({ email: address, password, name: name.trim() || undefined, is_admin: isAdmin });
        void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
        toast.success(t('adminAccounts.create.done', { email: user.email }));
        void navigate(`/admin/users/${encodeURIComponent(user.id)}`);
      },
      (err): Errors => (isApiError(err) && err.code === 'already_exists' ? { email: t('adminAccounts.create.taken') } : { form: errorMessage(err) }),
    );
  };

  return (
    <form className="admin-card admin-new-account" onSubmit={save} noValidate aria-labelledby="admin-new-account-title">
      <h2 id="admin-new-account-title">{t('adminAccounts.create.title')}</h2>
      <p className="muted">{t('adminAccounts.create.intro')}</p>
      <TextField
        label={t('adminAccounts.create.email')}
        type="email"
        autoComplete="off"
        spellCheck={false}
        value={email}
        error={error.email}
        onChange={(e) => {
          setEmail(e.target.value);
          setError((x) => ({ ...x, email: undefined, form: undefined }));
        }}
        required
      />
      <TextField
        label={t('adminAccounts.create.password')}
        type="password"
        autoComplete="new-password"
        value={password}
        hint={passwordRule()}
        error={error.password}
        onChange={(e) => {
          setPassword(e.target.value);
          setError((x) => ({ ...x, password: undefined, form: undefined }));
        }}
        required
      />
      <TextField label={t('adminAccounts.create.name')} hint={t('adminAccounts.create.nameHint')} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} autoComplete="off" />
      <div className="check-field">
        <label>
          <input type="checkbox" checked={isAdmin} onChange={(e) => setIsAdmin(e.target.checked)} />
          <span>{t('adminAccounts.create.operator')}</span>
        </label>
      </div>
      {error.form && <FormError error={error.form} />}
      <div className="admin-actions">
        <button className="btn primary" type="submit" disabled={busy}>
          {t('adminAccounts.create.submit')}
        </button>
        <button className="btn" type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
