/**
 * What the operator calls this install (GET /v1/site: the run-time setting site_name, Haul unless set): shown by the
 * logo, the sign-in page's heading and the browser tab. Asked once a page load, kept for five minutes; Haul until
 * the answer comes, so nothing waits for it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { haul } from '../../lib/api-client';

export const SITE_KEY = ['site'] as const;
const DEFAULT_NAME = 'Haul';

export function useSiteName(): string {
  const q = useQuery({ queryKey: SITE_KEY, queryFn: async () => (await haul.call('getSite')).name, staleTime: 5 * 60_000, meta: { quiet: true } });
  return q.data || DEFAULT_NAME;
}

/** Names the browser tab after the install. */
export function SiteTitle(): null {
  const name = useSiteName();
  useEffect(() => {
    document.title = name;
  }, [name]);
  return null;
}
