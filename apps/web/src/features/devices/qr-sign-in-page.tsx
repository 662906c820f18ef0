/**
 * Sign in with a QR code (/login/qr): this browser asks for a device code and shows it as a QR code and as text; a
 * phone or computer where the person is signed in scans or types it at /qr-login and approves; the poll then signs
 * this browser in, and the sign-in page's redirect takes over. An expired or refused code offers a new one.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { isApiError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { Logo } from '../layout/logo';
import { AuthShell, useSignedInRedirect } from '../auth/login-page';
import { signInByCode, type DeviceCode } from './devices-api';
import { QrCode } from './qr-code';

type Ended = 'expired' | 'refused' | 'failed' | null;

export function QrSignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [code, setCode] = useState<DeviceCode | null>(null);
  const [ended, setEnded] = useState<Ended>(null);
  const [error, setError] = useState('');
  const [round, setRound] = useState(0);
  const leave = useSignedInRedirect();

  useEffect(() => {
    const stop = new AbortController();
    setCode(null);
    setEnded(null);
    setError('');
    signInByCode(setCode, stop.signal).catch((err) => {
      if (stop.signal.aborted) return;
      if (isApiError(err, 'expired_token')) setEnded('expired');
      else if (isApiError(err, 'access_denied')) setEnded('refused');
      else {
        setEnded('failed');
        setError(errorMessage(err));
      }
    });
    return () => stop.abort();
  }, [round]);

  if (leave) return leave;

  return (
    <AuthShell>
      <section className="login-card qr-card" aria-labelledby="qr-title">
        <Logo />
        <h1 id="qr-title">{t('devices.qrTitle')}</h1>
        {code && !ended && (
          <>
            <p className="muted">{t('devices.qrHow')}</p>
            <QrCode text={code.verification_uri_complete} label={t('devices.qrLabel')} />
            <p className="device-code" aria-label={t('devices.codeIs', { code: code.user_code.split('').join(' ') })}>
              {code.user_code}
            </p>
            <p className="muted small">
              {t('devices.orOpen')} <span className="qr-uri">{code.verification_uri}</span>
            </p>
            <p className="muted small" role="status">
              {t('devices.waiting')}
            </p>
          </>
        )}
        {!code && !ended && (
          <p className="muted" role="status">
            {t('devices.gettingCode')}
          </p>
        )}
        {ended && (
          <>
            <p role="alert">{ended === 'expired' ? t('devices.codeExpired') : ended === 'refused' ? t('devices.codeRefused') : t('devices.codeFailed')}</p>
            <FormError error={error} />
            <button className="btn primary wide" type="button" onClick={() => setRound((r) => r + 1)}>
              {t('devices.newCode')}
            </button>
          </>
        )}
        <p className="login-switch">
          <Link className="link" to={{ pathname: '/login', search: location.search }}>
            {t('devices.backToPassword')}
          </Link>
        </p>
      </section>
    </AuthShell>
  );
}
