/**
 * The cloud download dialog's folded "Sign-in and headers" section (a user name and password, a cookie, a referer for
 * links that need them) and, for a single link, the name to save it as. The server keeps them sealed for the task only.
 */
import { useTranslation } from 'react-i18next';
import type { CreateFileBody } from '@haul/shared';

export interface SignIn {
  username: string;
  password: string;
  cookie: string;
  referer: string;
}

export const NO_SIGN_IN: SignIn = { username: '', password: '', cookie: '', referer: '' };

/** What the request carries: nothing when every field is empty. */
export function credentialsOf(s: SignIn): CreateFileBody['credentials'] {
  const headers: Record<string, string> = {};
  if (s.cookie.trim()) headers.Cookie = s.cookie.trim();
  if (s.referer.trim()) headers.Referer = s.referer.trim();
  const signIn = s.username || s.password ? { username: s.username, password: s.password } : {};
  if (!Object.keys(headers).length && !s.username && !s.password) return undefined;
  return { ...signIn, ...(Object.keys(headers).length ? { headers } : {}) };
}

export function CloudSignIn({ value, onChange }: { value: SignIn; onChange: (v: SignIn) => void }) {
  const { t } = useTranslation();
  const field = (key: keyof SignIn, label: string, type = 'text', autoComplete = 'off', placeholder?: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        type={type}
        value={value[key]}
        autoComplete={autoComplete}
        spellCheck={false}
        placeholder={placeholder}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <details className="cloud-sign-in">
      <summary>{t('cloudSignIn.section')}</summary>
      <p className="muted">{t('cloudSignIn.hint')}</p>
      {field('username', t('cloudSignIn.username'), 'text', 'off')}
      {/* new-password: the browser should not fill in the person's Haul password here. */}
      {field('password', t('cloudSignIn.password'), 'password', 'new-password')}
      {field('cookie', t('cloudSignIn.cookie'), 'text', 'off', 'name=value; other=value')}
      {field('referer', t('cloudSignIn.referer'), 'url', 'off', 'https://')}
    </details>
  );
}

/** "Save as": the file name of a single link (made valid by the server). */
export function SaveAs({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{t('cloudSignIn.saveAs')}</span>
      <input value={value} maxLength={255} spellCheck={false} placeholder={t('cloudSignIn.saveAsPlaceholder')} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}
