/**
 * The rows the file view renders, as many at every scroll offset: the virtualizer's range with its overscan, made up
 * to the most rows a screen can cut into (one more when rows are cut at both edges than when they line up). A count
 * that changed with the offset would add a slot of row elements mid-scroll (see the slots in file-view.tsx).
 */
import type { Range } from '@tanstack/react-virtual';

/** The most rows a view `height` tall shows at any scroll offset, with `overscan` more at each end. */
export const rowSpan = (height: number, rowH: number, overscan: number) => Math.ceil(height / rowH) + 1 + 2 * overscan;

/** A range extractor that renders at least `span` consecutive rows from the range's start (fewer at the list's end). */
export function steadyRange(span: number): (r: Range) => number[] {
  return (r) => {
    const first = Math.max(0, r.startIndex - r.overscan);
    const last = Math.min(r.count - 1, Math.max(r.endIndex + r.overscan, first + span - 1));
    return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
  };
}
