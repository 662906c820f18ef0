/**
 * A row of links that scrolls sideways (tabs on a phone) says so: `data-more` names the edge or edges past which
 * there is more (start, end, both), and scroll-edges.css fades that edge out. The item marked aria-current (whenever
 * `current` changes) and the item the keyboard reaches are brought wholly into view.
 */
import './scroll-edges.css';
import { useEffect, useRef } from 'react';

/**
 * Scrolls `item` to the strip's start when any of it is cut off. The browser leaves a focused item that is partly in
 * view where it is, and "nearest" would stop between snap points, where the strip's snapping pulls it back out.
 */
function reveal(strip: HTMLElement, item: Element | null) {
  if (!item || item.parentElement !== strip) return;
  const s = strip.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.left < s.left || r.right > s.right) item.scrollIntoView({ block: 'nearest', inline: 'start' });
}

export function useScrollEdges<T extends HTMLElement>(current?: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const max = el.scrollWidth - el.clientWidth;
      // A pixel of slack: zoomed pages scroll to fractions.
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft < max - 1;
      const more = start && end ? 'both' : start ? 'start' : end ? 'end' : '';
      if (more) el.dataset.more = more;
      else delete el.dataset.more;
    };
    update();
    const onFocus = (e: FocusEvent) => reveal(el, e.target as Element);
    el.addEventListener('scroll', update, { passive: true });
    el.addEventListener('focusin', onFocus);
    // The strip's width (a turned phone) or its items' (another language) may change.
    const ro = new ResizeObserver(update);
    ro.observe(el);
    for (const child of el.children) ro.observe(child);
    return () => {
      el.removeEventListener('scroll', update);
      el.removeEventListener('focusin', onFocus);
      ro.disconnect();
    };
  }, []);
  useEffect(() => {
    if (ref.current) reveal(ref.current, ref.current.querySelector('[aria-current]'));
  }, [current]);
  return ref;
}
