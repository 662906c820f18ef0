/** "Continue with <name>" for each provider the operator configured; nothing when there are none. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { goToProvider, listSignInProviders } from './providers-api';

export function ProviderButtons({ redirect }: { redirect: string }) {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: ['signInProviders'], queryFn: listSignInProviders, staleTime: 5 * 60_000, meta: { quiet: true } });
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState('');
  if (!data?.providers.length) return null;

  const go = async (id: string) => {
    setBusy(id);
    setError('');
    try {
      await goToProvider(id, 'signin', { redirect });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(null);
    }
  };

  return (
    <div className="login-providers">
      <p className="login-or">{t('providers.or')}</p>
      {data.providers.map((p) => (
        <button key={p.id} type="button" className="btn wide" disabled={busy !== null} onClick={() => void go(p.id)}>
          {t('providers.continueWith', { name: p.name })}
        </button>
      ))}
      <FormError error={error} />
    </div>
  );
}
