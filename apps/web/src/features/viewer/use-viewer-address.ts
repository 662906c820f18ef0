/**
 * Keeps the viewer and the address in step, in the drive. Whichever of the two moved since the last render leads:
 * opening a file pushes an entry naming it, going to another file replaces that entry (Back does not step through
 * every photo), closing goes back when the viewer's entry is the current one (so Forward reopens it) and otherwise
 * drops the parameter; Back, Forward and links open or close the viewer.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { entryState, isViewerEntry, placeOf, previewIn, rememberClosed, withPreview } from './viewer-address';
import { useViewer } from './viewer-store';

/** The file the address names that the viewer does not hold yet (to be found), and how to say it was dealt with. */
export function useViewerAddress(): { pending: string | null; settle: () => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const wanted = previewIn(location.search);
  const shown = useViewer((s) => s.files[s.index]?.id ?? null);
  const [pending, setPending] = useState<string | null>(null);
  const last = useRef<{ shown: string | null; wanted: string | null }>({ shown: null, wanted: null });
  const place = useRef('');
  place.current = placeOf(location.pathname, location.search);

  useEffect(
    () =>
      useViewer.subscribe((s, prev) => {
        if (prev.files.length && !s.files.length) rememberClosed({ place: place.current, files: prev.files, scene: prev.scene });
      }),
    [],
  );

  // Acting only on a change of the shown or the wanted file: a `history.back()` on its way must not be asked for twice.
  useEffect(() => {
    const prev = last.current;
    last.current = { shown, wanted };
    if ((shown === prev.shown && wanted === prev.wanted) || shown === wanted) return;
    if (wanted !== prev.wanted) {
      const viewer = useViewer.getState();
      if (!wanted) return viewer.close();
      const at = viewer.files.findIndex((f) => f.id === wanted);
      if (at >= 0) viewer.show(at);
      else setPending(wanted);
      return;
    }
    const to = { pathname: location.pathname, search: withPreview(location.search, shown), hash: location.hash };
    if (shown && wanted) void navigate(to, { replace: true, state: location.state });
    else if (shown) void navigate(to, { state: entryState() });
    else if (isViewerEntry(location.state)) void navigate(-1);
    else void navigate(to, { replace: true });
  }, [shown, wanted, location.pathname, location.search, location.hash, location.state, navigate]);

  const settle = useCallback(() => setPending(null), []);
  return { pending: pending === wanted ? pending : null, settle };
}
