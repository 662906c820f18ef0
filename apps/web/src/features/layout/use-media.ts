/** The phone layout below 768 px (seed 000 §9). */
import { useSyncExternalStore } from 'react';

export const MOBILE_QUERY = '(max-width: 767.98px)';

export function useIsMobile(): boolean {
  return useSyncExternalStore(
    (cb) => {
      const mq = matchMedia(MOBILE_QUERY);
      mq.addEventListener('change', cb);
      return () => mq.removeEventListener('change', cb);
    },
    () => matchMedia(MOBILE_QUERY).matches,
  );
}
