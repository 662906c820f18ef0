/** An empty element at the end of a list that calls `onVisible` when it scrolls into view (load the next page). */
import { useEffect, useRef } from 'react';

export function EndSentinel({ onVisible }: { onVisible: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver(([e]) => e?.isIntersecting && callback.current());
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return <div ref={ref} className="end-sentinel" aria-hidden="true" />;
}
