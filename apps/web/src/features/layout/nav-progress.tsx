/** A thin bar at the top while a screen is loading its data after navigation. */
import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

export function NavProgress() {
  const { t } = useTranslation();
  const fetching = useIsFetching();
  const location = useLocation();
  const [navigating, setNavigating] = useState(false);
  useEffect(() => {
    setNavigating(true);
    const t = setTimeout(() => setNavigating(false), 300);
    return () => clearTimeout(t);
  }, [location.pathname]);
  const active = navigating || fetching > 0;
  // Seed 000 §2: no progress bar on the feedback route.
  if (/^\/feedback(-v2)?\/?$/.test(location.pathname)) return null;
  return <div className={`nav-progress${active ? ' active' : ''}`} role="progressbar" aria-label={t('common.loading')} aria-hidden={!active} aria-busy={active} />;
}
