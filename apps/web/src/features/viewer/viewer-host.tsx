/**
 * Where the viewer lives in a page: its code loads when the browser is idle (or at the first open). In the drive
 * (`addressed`) the viewer and the address follow each other (use-viewer-address); elsewhere (a share page) leaving
 * the page's address closes it. Rendered from plain state rather than React.lazy, whose fallback is held for ~300 ms.
 */
import { useEffect, useState, type ComponentType } from 'react';
import { useLocation } from 'react-router';
import { OpenFromAddress } from './open-from-address';
import { useViewerAddress } from './use-viewer-address';
import { useViewer } from './viewer-store';

const load = () => import('./viewer');
const idle = (window.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 2000))) as (cb: () => void) => number;

export function ViewerHost({ addressed = false }: { addressed?: boolean }) {
  const open = useViewer((s) => s.files.length > 0);
  const [Viewer, setViewer] = useState<ComponentType | null>(null);
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
  return (
    <>
      {addressed ? <AddressSync /> : <CloseOnLeave />}
      {open && Viewer ? <Viewer /> : null}
    </>
  );
}

function AddressSync() {
  const { pending, settle } = useViewerAddress();
  return pending ? <OpenFromAddress key={pending} id={pending} onSettled={settle} /> : null;
}

function CloseOnLeave() {
  const { pathname, search } = useLocation();
  useEffect(() => () => useViewer.getState().close(), [pathname, search]);
  return null;
}
