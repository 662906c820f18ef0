/**
 * A checked link: what it is (name, size, type; a torrent's files), whether the server has it already (then adding is
 * instant), and the way to add it: the cloud download dialog, filled, in the drive. Signed out, the same address asks
 * for sign-in first and comes back to the dialog. Signed in, the link can be kept for later too (a bookmark).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatSize } from '@haul/shared/plain';
import { Icon, type IconName } from '../../components/icon';
import type { UrlCheck } from '../offline/offline-api';
import { keepForLater } from '../bookmarks/bookmarks-api';

const ICON: Record<UrlCheck['kind'], IconName> = { http: 'globe', magnet: 'link', torrent: 'torrent' };
/** Files listed before "and N more": a season pack lists hundreds. */
const SHOWN = 50;

/** The drive's deep link that opens the cloud download dialog with this link (a .torrent link read as a torrent). */
export function addTarget(check: UrlCheck, link: string): string {
  const query = new URLSearchParams({ action: 'create_task', [check.kind === 'torrent' ? 'torrent_file_url' : 'url']: link });
  return `/all?${query}`;
}

export function UrlCheckCard({ check, link, signedIn }: { check: UrlCheck; link: string; signedIn: boolean }) {
  const { t, i18n } = useTranslation();
  const files = check.torrent?.files ?? [];
  const facts = [
    check.size ? formatSize(check.size, 1, i18n.language) : t('urlChecker.sizeUnknown'),
    check.torrent ? t('urlChecker.files', { count: files.length }) : check.mime_type || t('urlChecker.typeUnknown'),
  ];
  return (
    <article className="url-check-card" aria-labelledby="url-check-name">
      <header>
        <Icon name={ICON[check.kind]} />
        <div>
          <h2 id="url-check-name" title={check.name}>
            {check.name}
          </h2>
          <p className="muted">
            {t(`urlChecker.kind.${check.kind}`)} · {facts.join(' · ')}
          </p>
        </div>
      </header>
      {check.instant && (
        <p className="url-check-instant">
          <Icon name="check" /> {t('urlChecker.instant')}
        </p>
      )}
      {check.kind === 'http' && check.url !== link && (
        <p className="muted small url-check-final">
          {t('urlChecker.leadsTo')} <span>{check.url}</span>
        </p>
      )}
      {files.length > 0 && (
        <ul className="url-check-files" aria-label={t('urlChecker.filesLabel')}>
          {files.slice(0, SHOWN).map((f) => (
            <li key={f.index}>
              <span className="fname" title={f.path}>
                {f.path}
              </span>
              <small className="muted">{formatSize(f.size, 1, i18n.language)}</small>
            </li>
          ))}
          {files.length > SHOWN && <li className="muted">{t('urlChecker.more', { count: files.length - SHOWN })}</li>}
        </ul>
      )}
      <div className="url-check-actions">
        {/* Kept as typed (as the dialog adds it), with what the check found; signed out there is no account to keep it in. */}
        {signedIn && (
          <button type="button" className="btn" onClick={() => void keepForLater([{ url: link, check }], 'checker')}>
            <Icon name="bookmark" size={18} />
            {t('bookmarksPage.keep')}
          </button>
        )}
        <Link className="btn primary" to={addTarget(check, link)}>
          {signedIn ? t('urlChecker.add') : t('urlChecker.signInToAdd')}
        </Link>
      </div>
    </article>
  );
}
