/**
 * The viewer is a modal: it takes the keyboard as it opens, so Space and Enter reach the player rather than the page's
 * button that opened it (now behind the viewer), and Tab starts from the viewer's own controls. Closing gives the
 * keyboard back to that control, if nothing else took it meanwhile.
 */
import { useEffect, useRef } from 'react';

export function useModalFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!root || root.contains(opener)) return;
    root.focus({ preventScroll: true });
    return () => {
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost && opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);
  return ref;
}
