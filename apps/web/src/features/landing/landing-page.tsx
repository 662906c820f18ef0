/**
 * The signed-out visitor's first page (seed 000 route `landing`): what Haul does, then sign in or create an account.
 * The browser extension frames it on its welcome page (the server lets only extension origins frame this address);
 * framed, its links open the drive in a tab of its own rather than inside the extension's page.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionStore } from '../auth/session-store';
import { IntroCard, type IntroPoint } from './intro-card';
import './landing.css';

/** In a frame (the extension's welcome page) a link opens a tab; on its own the page navigates as usual. */
const framed = () => {
  try {
    return window.top !== window.self;
  } catch {
    return true;
  }
};

function Go({ to, className, children }: { to: string; className: string; children: string }) {
  if (framed())
    return (
      <a className={className} href={`/drive${to}`} target="_blank" rel="noopener">
        {children}
      </a>
    );
  return (
    <Link className={className} to={to}>
      {children}
    </Link>
  );
}

export function LandingPage() {
  const { t } = useTranslation();
  const signedIn = useSessionStore((s) => !!s.session);
  const points: IntroPoint[] = [
    { icon: 'link', title: t('landing.fetchTitle'), body: t('landing.fetchBody') },
    { icon: 'play', title: t('landing.watchTitle'), body: t('landing.watchBody') },
    { icon: 'shared', title: t('landing.shareTitle'), body: t('landing.shareBody') },
    { icon: 'lock', title: t('landing.ownTitle'), body: t('landing.ownBody') },
  ];
  return (
    <IntroCard id="landing-title" title={t('landing.title')} lead={t('landing.lead')} points={points} className="landing">
      <div className="landing-actions">
        {signedIn ? (
          <Go className="btn primary" to="/all">
            {t('landing.open')}
          </Go>
        ) : (
          <>
            <Go className="btn primary" to="/login?mode=signup">
              {t('auth.signUp')}
            </Go>
            <Go className="btn" to="/login">
              {t('auth.signIn')}
            </Go>
          </>
        )}
      </div>
      <p className="landing-more">
        <Go className="link" to="/extension">
          {t('landing.extension')}
        </Go>
      </p>
    </IntroCard>
  );
}
