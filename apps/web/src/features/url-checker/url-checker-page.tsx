/**
 * The URL checker (seed 000 route `url-checker`, open signed out): paste a link and see what it is before adding it.
 * The link stays in the address (`?url=`), so a checked link can be sent on and opens checked. A failure is told in
 * the words a cloud download would fail with; signed out, checks are few an hour, and the limit says to sign in.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormError } from '../../components/form-error';
import { Logo } from '../layout/logo';
import { AuthShell } from '../auth/login-page';
import { useSessionStore } from '../auth/session-store';
import { badLinks, checkUrl, type UrlCheck } from '../offline/offline-api';
import { checkError } from './check-error';
import { UrlCheckCard } from './url-check-card';
import './url-checker.css';

interface Checked {
  link: string;
  result: UrlCheck;
}

export function UrlCheckerPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const signedIn = useSessionStore((s) => !!s.session);
  const [link, setLink] = useState(params.get('url') ?? '');
  const [busy, setBusy] = useState<'http' | 'magnet' | null>(null);
  const [error, setError] = useState('');
  const [checked, setChecked] = useState<Checked | null>(null);
  const running = useRef<AbortController | null>(null);

  const run = async (value: string) => {
    const asked = value.trim();
    if (!asked) return setError(t('urlChecker.empty'));
    // Only links are sent: words typed by mistake spend none of the visitor's checks.
    if (badLinks(asked).length) return setError(t('urlChecker.notALink'));
    running.current?.abort();
    const stop = (running.current = new AbortController());
    setBusy(/^magnet:/i.test(asked) ? 'magnet' : 'http');
    setError('');
    setChecked(null);
    setParams({ url: asked }, { replace: true });
    try {
      setChecked({ link: asked, result: await checkUrl(asked, stop.signal) });
    } catch (err) {
      if (!stop.signal.aborted) setError(checkError(err, signedIn));
    } finally {
      if (running.current === stop) setBusy(null);
    }
  };

  // A link in the address is checked once on arrival.
  useEffect(() => {
    const first = params.get('url');
    if (first) void run(first);
    return () => running.current?.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(link);
  };

  return (
    <AuthShell>
      <section className="login-card url-checker" aria-labelledby="url-checker-title">
        <Logo />
        <h1 id="url-checker-title">{t('urlChecker.title')}</h1>
        <p className="muted">{t('urlChecker.lead')}</p>
        <form onSubmit={submit} className="url-checker-form">
          <label htmlFor="url-checker-link">{t('urlChecker.label')}</label>
          <div className="url-checker-row">
            <input
              id="url-checker-link"
              value={link}
              onChange={(e) => setLink(e.target.value)}
              placeholder="https://… · magnet:?xt=…"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              autoFocus
            />
            <button className="btn primary" type="submit" disabled={!!busy}>
              {busy ? t('urlChecker.checking') : t('urlChecker.check')}
            </button>
          </div>
        </form>
        {busy === 'magnet' && (
          <p className="muted small" role="status">
            {t('urlChecker.askingPeers')}
          </p>
        )}
        <FormError error={error} />
        {checked && <UrlCheckCard check={checked.result} link={checked.link} signedIn={signedIn} />}
        <p className="muted small url-checker-foot">
          {signedIn ? <Link to="/all">{t('urlChecker.openDrive')}</Link> : <Link to="/landing">{t('urlChecker.whatIsHaul')}</Link>}
        </p>
      </section>
    </AuthShell>
  );
}
