/** The signed-in shell: a 64 px header, the sidebar (a drawer on phones) and the current screen. */
import { PasswordNeededBanner } from '../account/password-needed-banner';
import './drawer.css';
import './skip-link.css';
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { formatSize } from '@haul/shared/plain';
import { getAbout } from '../auth/auth-api';
import { UserMenu } from '../auth/user-menu';
import { useSelection } from '../files/selection-store';
import { SearchBox } from '../search/search-box';
import { SyncIndicator } from '../sync/sync-indicator';
import { useSyncEngine } from '../sync/use-sync-engine';
import { focusMain, useFocusKeeper } from './focus-keeper';
import { Icon } from '../../components/icon';
import { NAV } from './nav-items';
import { Logo } from './logo';
import { NavProgress } from './nav-progress';
import { SettingsMenu } from './settings-menu';
import { useSearchKey } from './use-search-key';
import { UpgradeEntry } from '../plans/upgrade-entry';
import { AdminNavEntry } from '../admin/admin-nav-entry';
import { startSettingsSync } from '../settings/settings-sync';
import { MagnetHandlerOffer } from '../settings/magnet-handler-offer';
import { OfflineBanner } from '../pwa/offline-banner';
import { useNewEventsCount } from '../recent/recent-events';

/** The screens whose main content is a file list (the skip link names it). */
const LISTS = ['all', 'star', 'recent', 'shared', 'watch-history', 'trash'];

function StorageMeter() {
  const { t, i18n } = useTranslation();
  const { data } = useQuery({ queryKey: ['about'], queryFn: getAbout, staleTime: 30_000 });
  if (!data) return null;
  const usage = Number(data.quota.usage);
  const limit = Number(data.quota.limit);
  const pct = limit > 0 ? Math.min(100, (usage / limit) * 100) : 0;
  return (
    <Link className="storage" to="/space-management" title={t('limits.spacePage')}>
      <div
        className="storage-bar"
        role="progressbar"
        aria-valuenow={Math.round(pct)}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label={t('nav.storage')}
      >
        <span style={{ width: `${pct}%` }} />
      </div>
      <small>
        {t('nav.storageUsed', { used: formatSize(usage, 1, i18n.language), total: limit > 0 ? formatSize(limit, 1, i18n.language) : '∞' })}
      </small>
    </Link>
  );
}

/** How many events arrived since Recent was last looked at; nothing when none. */
function NewEventsBadge() {
  const { t } = useTranslation();
  const count = useNewEventsCount();
  if (!count) return null;
  return (
    <span className="nav-badge" aria-label={t('recent.newCount', { count })}>
      {count > 99 ? '99+' : count}
    </span>
  );
}

export function AppLayout() {
  const { t } = useTranslation();
  const [drawer, setDrawer] = useState(false);
  const location = useLocation();
  const header = useRef<HTMLElement>(null);
  const main = useRef<HTMLElement>(null);
  useFocusKeeper(main);
  useSearchKey(header);
  useSyncEngine();
  useEffect(() => startSettingsSync(), []);
  useEffect(() => {
    // A new screen starts with nothing selected.
    setDrawer(false);
    useSelection.getState().clear();
  }, [location.pathname]);

  // Past the header and the sidebar in one step; focus moves without the address gaining a #fragment.
  const skip = (e: MouseEvent) => {
    e.preventDefault();
    focusMain(main.current, true);
  };
  const lists = LISTS.includes(location.pathname.split('/')[1] ?? '');

  return (
    <div className="shell">
      <a className="skip-link" href="#main" onClick={skip}>
        {lists ? t('nav.skipToFiles') : t('nav.skipToContent')}
      </a>
      <NavProgress />
      <header className="header" ref={header}>
        <button
          className="icon-btn only-mobile"
          aria-label={t('nav.menu')}
          title={t('nav.menu')}
          aria-expanded={drawer}
          onClick={() => setDrawer((d) => !d)}
        >
          <Icon name="menu" />
        </button>
        <NavLink to="/all" className="brand">
          <Logo />
        </NavLink>
        <SearchBox />
        <div className="header-end">
          <SyncIndicator />
          <span className="hide-mobile">
            <SettingsMenu />
          </span>
          <UserMenu />
        </div>
      </header>
      <nav className={`sidebar${drawer ? ' open' : ''}`} aria-label={t('nav.label')}>
        {NAV.map((n) => (
          <NavLink key={n.to} to={n.to} className="nav-item" onClick={() => setDrawer(false)}>
            <Icon name={n.icon} />
            <span>{t(n.key)}</span>
            {n.to === '/recent' && <NewEventsBadge />}
          </NavLink>
        ))}
        <AdminNavEntry onClick={() => setDrawer(false)} />
        <StorageMeter />
        <UpgradeEntry />
        <MagnetHandlerOffer />
        {/* On phones the header has no room: theme and language live in the drawer. */}
        <div className="sidebar-settings">
          <SettingsMenu />
        </div>
      </nav>
      {drawer && <div className="scrim only-mobile" onClick={() => setDrawer(false)} />}
      <main className="content" id="main" ref={main}>
        <OfflineBanner />
        <PasswordNeededBanner />
        <Outlet />
      </main>
    </div>
  );
}
