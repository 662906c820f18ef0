/** The syncing animation: appears after 3 s of syncing, disappears as soon as syncing ends. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SYNC_ANIMATION_DELAY_MS, useSyncStatus } from './sync-status';

export function SyncIndicator() {
  const { t } = useTranslation();
  const since = useSyncStatus((s) => s.since);
  const running = useSyncStatus((s) => s.active > 0);
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (since === null || !running) return setShow(false);
    const timer = setTimeout(() => setShow(true), Math.max(0, since + SYNC_ANIMATION_DELAY_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [since, running]);
  if (!show) return null;
  return (
    <span className="sync-indicator" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="hide-mobile">{t('sync.syncing')}</span>
    </span>
  );
}
