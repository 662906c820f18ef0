/**
 * Items a screen was opened to point at: "Show in folder", a deep link's highlight_files, a cloud download that
 * landed. The address's history state names them (`{ highlight: id | ids }`); each is selected and the first brought
 * into view once the list holds it, once per visit (a later item of the same visit, landing later, joins them).
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** The ids a history state names, in order. */
export function highlightOf(state: unknown): string[] {
  const h = (state as { highlight?: unknown } | null)?.highlight;
  if (typeof h === 'string') return h ? [h] : [];
  return Array.isArray(h) ? h.filter((x): x is string => typeof x === 'string' && !!x) : [];
}

/** Calls `show` with the named items the list holds and the index of the first, as more of them appear. */
export function useHighlight(order: readonly string[], show: (ids: string[], first: number) => void): void {
  const location = useLocation();
  const wanted = highlightOf(location.state);
  const key = wanted.join(',');
  // How many were shown on this visit: nothing is re-selected unless more turned up.
  const done = useRef({ visit: '', count: 0 });
  const latest = useRef(show);
  latest.current = show;
  useEffect(() => {
    if (!key) return;
    const present = key.split(',').filter((id) => order.includes(id));
    if (!present.length) return;
    if (done.current.visit === location.key && done.current.count >= present.length) return;
    done.current = { visit: location.key, count: present.length };
    latest.current(present, Math.min(...present.map((id) => order.indexOf(id))));
  }, [key, location.key, order]);
}
