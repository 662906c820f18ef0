/** Media queries as React state. */
import { useSyncExternalStore } from 'react';
import { MOBILE_QUERY, TOUCH_OR_NARROW_QUERY } from './media-queries';

export { MOBILE_QUERY, TOUCH_OR_NARROW_QUERY };

export function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (cb) => {
      const mq = matchMedia(query);
      mq.addEventListener('change', cb);
      return () => mq.removeEventListener('change', cb);
    },
    () => matchMedia(query).matches,
  );
}

export function useIsMobile(): boolean {
  return useMedia(MOBILE_QUERY);
}
