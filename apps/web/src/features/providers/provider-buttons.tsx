/** "Continue with <name>" for each provider the operator configured; nothing when there are none. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { useSubmit } from '../../components/use-submit';
import { goToProvider, listSignInProviders } from './providers-api';

export function ProviderButtons({ redirect }: { redirect: string }) {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: ['signInProviders'], queryFn: listSignInProviders, staleTime: 5 * 60_000, meta: { quiet: true } });
  const { busy, error, submit } = useSubmit();
  if (!data?.providers.length) return null;

  // On its way to the provider, every button waits.
  const go = (id: string) => submit(() => goToProvider(id, 'signin', { redirect }), errorMessage, { leaves: true });

  return (
    <div className="login-providers">
      <p className="login-or">{t('providers.or')}</p>
      {data.providers.map((p) => (
        <button key={p.id} type="button" className="btn wide" disabled={busy} onClick={() => void go(p.id)}>
          {t('providers.continueWith', { name: p.name })}
        </button>
      ))}
      <FormError error={error} />
    </div>
  );
}
