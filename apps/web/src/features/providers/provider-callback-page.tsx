/**
 * Where providers send the browser back to (/login/callback?code=…&state=…). It goes on only for the round trip this
 * tab started (same state, a code present): then it trades the code and signs in, or connects the provider to the
 * signed-in account and returns to the account page. Anything else does nothing but offer the way back.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../lib/error-message';
import { AuthShell } from '../auth/login-page';
import { safeRedirect } from '../auth/require-auth';
import { Logo } from '../layout/logo';
import { dropPendingFlow, finishFlow, takePendingFlow } from './providers-api';

export function ProviderCallbackPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once per page: the kept round trip is taken on the first run.
    if (started.current) return;
    started.current = true;
    if (params.get('error')) {
      dropPendingFlow();
      setFailure(t('providers.cancelled'));
      return;
    }
    const flow = takePendingFlow(params);
    if (!flow) {
      setFailure(t('providers.notOurs'));
      return;
    }
    finishFlow(flow)
      .then(() => {
        if (flow.purpose === 'bind') {
          toast.success(t('providers.connectedToast'));
          void navigate('/account/providers', { replace: true });
        } else {
          void navigate(safeRedirect(flow.redirect), { replace: true });
        }
      })
      .catch((err: unknown) => setFailure(errorMessage(err)));
  }, [params, navigate, t]);

  return (
    <AuthShell>
      <div className="login-card" role="status" aria-live="polite">
        <Logo />
        {failure === null ? (
          <h1>{t('providers.finishing')}</h1>
        ) : (
          <>
            <h1>{t('providers.failedTitle')}</h1>
            <p role="alert">{failure}</p>
            <p className="login-switch">
              <Link className="link" to="/login" replace>
                {t('providers.backToSignIn')}
              </Link>
            </p>
          </>
        )}
      </div>
    </AuthShell>
  );
}
