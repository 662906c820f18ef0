/**
 * A component whose code is fetched the first time it has something to show (a dialog opened), so the first visit
 * does not download it. Until then it renders nothing, as the component itself would; rendered from plain state
 * rather than React.lazy, whose Suspense fallback is held for ~300 ms (see viewer-host).
 */
import { useEffect, useState, type ComponentType } from 'react';

export function loadWhen<P extends object>(load: () => Promise<ComponentType<P>>, useWanted: () => boolean): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function LoadWhen(props: P) {
    const wanted = useWanted();
    const [Loaded, setLoaded] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (!wanted || Loaded) return;
      let live = true;
      void load().then((c) => {
        loaded = c;
        if (live) setLoaded(() => c);
      });
      return () => {
        live = false;
      };
    }, [wanted, Loaded]);
    return Loaded ? <Loaded {...props} /> : null;
  };
}
