/** Sizes the file view lays out by, followed as they change (a ResizeObserver each). */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** The inner width and height of the element behind `ref`: how many cards fit a row, how many rows fit the screen. */
export function useClientSize(ref: RefObject<HTMLElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    measure();
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

/** The height of the element given the returned ref (the list's column titles); 0 while `shown` is false. */
export function useHeight(shown: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!shown || !el) return setHeight(0);
    const ro = new ResizeObserver(() => setHeight(el.offsetHeight));
    ro.observe(el);
    setHeight(el.offsetHeight);
    return () => ro.disconnect();
  }, [shown]);
  return { ref, height };
}
