/**
 * The seeds' separate web-decompression page (/web-decompression/:fileId and its result): the archive page without
 * the drive's sidebar, for a link opened from outside the drive (a message, another app, a bookmark).
 */
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { Logo } from '../layout/logo';
import './archives.css';

export function StandaloneArchiveLayout() {
  const { t } = useTranslation();
  return (
    <main className="archive-standalone">
      <header className="archive-standalone-bar">
        <Logo />
        <Link className="link" to="/all">
          {t('devices.toDrive')}
        </Link>
      </header>
      <Outlet />
    </main>
  );
}
