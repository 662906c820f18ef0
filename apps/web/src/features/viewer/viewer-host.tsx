/**
 * Where the viewer lives in a page: its code loads when the browser is idle (or at the first open), and leaving the
 * page's address closes it. Rendered from plain state rather than React.lazy, whose fallback is held for ~300 ms.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { useLocation } from 'react-router';
import { useViewer } from './viewer-store';

const load = () => import('./viewer');
const idle = (window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 2000))) as (cb: () => void) => number;

export function ViewerHost() {
  const open = useViewer((s) => s.files.length > 0);
  const [Viewer, setViewer] = useState<ComponentType | null>(null);
  const { pathname, search } = useLocation();
  useEffect(() => () => useViewer.getState().close(), [pathname, search]);
  useEffect(() => {
    if (Viewer) return;
    let live = true;
    const take = () => void load().then((m) => live && setViewer(() => m.default));
    if (open) take();
    else idle(take);
    return () => {
      live = false;
    };
  }, [open, Viewer]);
  return open && Viewer ? <Viewer /> : null;
}
