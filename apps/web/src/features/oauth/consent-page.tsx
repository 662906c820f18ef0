/**
 * The consent screen (/authorize?client_id=…&redirect_uri=…): a third-party app asks to use the account. It names the
 * app, what it may do and where the answer goes; Allow sends the browser there with a code and the app's state, Deny
 * with error=access_denied. An unknown app or a redirect URI the app did not register never sends the browser
 * anywhere (RFC 6749 §4.1.2.1): the page says the link is not valid. An app the person already allowed for all it asks
 * from this same session goes straight through; otherwise Allow asks for the password (allowing an app is a lasting
 * way in, which a stolen session alone must not buy).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { FormError } from '../../components/form-error';
import { Logo } from '../layout/logo';
import { AuthShell } from '../auth/login-page';
import { getMe } from '../auth/auth-api';
import { useCredentialSudo } from '../account/use-credential-sudo';
import { allowApp, authorizeDetect, authorizeInfo, deniedUrl, readRequest, sendBackUrl } from './oauth-api';

/** Leaves Haul for the app's address. */
const leaveFor = (url: string) => window.location.assign(url);

function Shell({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <AuthShell>
      <section className="login-card qr-card" aria-labelledby="consent-title">
        <Logo />
        {children}
        <p className="login-switch">
          <Link className="link" to="/account/apps">
            {t('oauth.manage')}
          </Link>
        </p>
      </section>
    </AuthShell>
  );
}

function Invalid({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Shell>
      <h1 id="consent-title">{t('oauth.badRequest')}</h1>
      <p className="account-notice" role="alert">
        {message}
      </p>
    </Shell>
  );
}

export function ConsentPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const request = useMemo(() => readRequest(search), [search]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const me = useQuery({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });
  const info = useQuery({ queryKey: ['authorize-info', search.toString()], queryFn: () => authorizeInfo(request!), enabled: !!request, retry: false, staleTime: Infinity, meta: { quiet: true } });
  const detect = useQuery({ queryKey: ['authorize-detect', search.toString()], queryFn: () => authorizeDetect(request!), enabled: info.isSuccess, retry: false, staleTime: Infinity, meta: { quiet: true } });
  const sendBack = info.isError ? sendBackUrl(info.error) : null;
  const started = useRef(false);

  const confirm = useCredentialSudo();

  /** Allows the app; `confirmed` (a click on Allow) asks for the password, a consent this session gave before does not. */
  const allow = async (confirmed: boolean) => {
    if (!request) return;
    setBusy(true);
    setError('');
    try {
      const token = confirmed ? await confirm.token() : undefined;
      if (token === null) return setBusy(false);
      leaveFor(await allowApp(request, token));
    } catch (err) {
      const back = sendBackUrl(err);
      if (back) return leaveFor(back);
      confirm.refused(err);
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  // A faulty request from a sound app goes back to the app, which knows what it asked; a known consent goes through.
  useEffect(() => {
    if (started.current) return;
    if (sendBack) {
      started.current = true;
      leaveFor(sendBack);
    } else if (detect.data === true) {
      started.current = true;
      void allow(false);
    }
  });

  if (!request) return <Invalid message={t('oauth.missingParams')} />;
  if (info.isError && !sendBack) return <Invalid message={errorMessage(info.error)} />;
  if (!info.data || sendBack || detect.isPending || detect.data === true) {
    return (
      <Shell>
        <h1 id="consent-title">{t('oauth.title')}</h1>
        <p className="muted" role="status">
          {info.data ? t('oauth.continuing', { app: info.data.client_name }) : t('common.loading')}
        </p>
        <FormError error={error} />
      </Shell>
    );
  }

  const app = info.data.client_name;
  const target = new URL(info.data.redirect_uri);
  return (
    <Shell>
      <h1 id="consent-title">{t('oauth.consentTitle', { app })}</h1>
      {me.data && <p className="muted">{t('oauth.signedInAs', { email: me.data.email })}</p>}
      <p className="qr-ask">{t('oauth.mayDo', { app })}</p>
      <ul className="deletion-list consent-scopes">
        {info.data.scopes.map((s) => (
          <li key={s.name}>{t(`oauth.scope.${s.name}`)}</li>
        ))}
      </ul>
      <p className="account-notice">{t('oauth.notSecurity')}</p>
      <p className="account-notice warn">{t('oauth.goesTo', { target: target.protocol.startsWith('http') ? target.host : target.protocol })}</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void allow(true);
        }}
      >
        {confirm.field}
        <FormError error={error} />
        <div className="dialog-actions">
          <button className="btn" type="button" disabled={busy} onClick={() => leaveFor(deniedUrl(info.data.redirect_uri, info.data.state))}>
            {t('oauth.deny')}
          </button>
          <button className="btn primary" type="submit" disabled={busy}>
            {t('oauth.allow')}
          </button>
        </div>
      </form>
    </Shell>
  );
}
