/** Where the viewer lives in a page: its code loads on first use, and leaving the page's address closes it. */
import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { useViewer } from './viewer-store';

const Viewer = lazy(() => import('./viewer'));

export function ViewerHost() {
  const open = useViewer((s) => s.files.length > 0);
  const { pathname, search } = useLocation();
  useEffect(() => () => useViewer.getState().close(), [pathname, search]);
  return <Suspense fallback={null}>{open && <Viewer />}</Suspense>;
}
