/**
 * How to install the browser extension (seed 000 route `extension`, open signed out): what it does, its version, the
 * zips this server offers (/drive/extension/haul-extension-<browser>.zip, served by the server from the extension's
 * build), and the steps to load it unpacked in a Chromium browser or as a temporary add-on in Firefox. The version is
 * the extension's own, read at build time from its package, built from the same tree as the zips.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import extension from '../../../../extension/package.json';
import type { IconName } from '../../components/icon';
import { useSessionStore } from '../auth/session-store';
import { IntroCard } from '../landing/intro-card';
import './extension-page.css';

/** Where the server offers each browser's zip (apps/server/src/web/extension-download.ts). */
export const EXTENSION_ZIP = {
  chromium: '/drive/extension/haul-extension-chromium.zip',
  firefox: '/drive/extension/haul-extension-firefox.zip',
} as const;

const POINTS: { icon: IconName; key: string }[] = [
  { icon: 'link', key: 'menu' },
  { icon: 'list', key: 'popup' },
  { icon: 'torrent', key: 'catch' },
];

const STEPS = { chromium: ['chromium1', 'chromium2', 'chromium3'], firefox: ['firefox1', 'firefox2', 'firefox3'] } as const;

export function ExtensionPage() {
  const { t } = useTranslation();
  const signedIn = useSessionStore((s) => !!s.session);
  return (
    <IntroCard
      id="extension-title"
      title={t('extensionPage.title')}
      lead={t('extensionPage.lead')}
      points={POINTS.map((p) => ({ icon: p.icon, body: t(`extensionPage.${p.key}`) }))}
      className="extension-page"
    >
      <p className="extension-version">{t('extensionPage.version', { version: extension.version })}</p>
      <div className="extension-downloads">
        <a className="btn primary" href={EXTENSION_ZIP.chromium} download>
          {t('extensionPage.downloadChromium')}
        </a>
        <a className="btn" href={EXTENSION_ZIP.firefox} download>
          {t('extensionPage.downloadFirefox')}
        </a>
      </div>
      <h2>{t('extensionPage.installTitle')}</h2>
      {(['chromium', 'firefox'] as const).map((browser) => (
        <section key={browser} className="extension-steps" aria-labelledby={`steps-${browser}`}>
          <h3 id={`steps-${browser}`}>{t(`extensionPage.${browser}Title`)}</h3>
          <ol>
            {STEPS[browser].map((step) => (
              <li key={step}>{t(`extensionPage.${step}`)}</li>
            ))}
          </ol>
        </section>
      ))}
      <p className="extension-then">{t('extensionPage.then', { address: window.location.origin })}</p>
      <p className="extension-more">
        <Link className="link" to={signedIn ? '/all' : '/landing'}>
          {signedIn ? t('extensionPage.openDrive') : t('extensionPage.aboutHaul')}
        </Link>
      </p>
    </IntroCard>
  );
}
