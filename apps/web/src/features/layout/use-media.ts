/** The phone layout below 768 px (seed 000 §9), and other media queries the screens follow. */
import { useSyncExternalStore } from 'react';

export const MOBILE_QUERY = '(max-width: 767.98px)';
/** A phone, or a screen worked with a finger (a tablet): no files to drag in, no hover. */
export const TOUCH_OR_NARROW_QUERY = `${MOBILE_QUERY}, (pointer: coarse)`;

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
