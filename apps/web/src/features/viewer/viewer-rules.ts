/** The viewer shell's rules from seed 001 (§4, §5, §9), apart from React: swipes, the thumbnail strip's paging, key debouncing. */

/** Arrow keys switch files once they have been quiet this long (seed 001 §5). */
export const ARROW_DEBOUNCE_MS = 100;
/** The strip's overflow is checked at most this often (seed 001 §9). */
export const OVERFLOW_CHECK_MS = 500;

/** Whether the thumbnail strip overflows, and which way it can still page. */
export function stripPaging(
  scrollLeft: number,
  scrollWidth: number,
  clientWidth: number,
): { overflow: boolean; back: boolean; forward: boolean } {
  const overflow = scrollWidth - clientWidth > 1;
  return { overflow, back: overflow && scrollLeft > 1, forward: overflow && scrollLeft + clientWidth < scrollWidth - 1 };
}

/**
 * What a finished touch gesture does: down past a quarter of the height closes; sideways past two thirds of the
 * width (half on a phone) goes to the previous or next file; a sweep of 80 % of the width or more is the system's.
 */
export function swipeOutcome(g: {
  dx: number;
  dy: number;
  width: number;
  height: number;
  mobile: boolean;
}): 'close' | 'previous' | 'next' | null {
  const ax = Math.abs(g.dx);
  if (g.dy > g.height / 4 && g.dy > ax) return 'close';
  if (ax <= Math.abs(g.dy) || ax >= g.width * 0.8) return null;
  if (ax > g.width * (g.mobile ? 1 / 2 : 2 / 3)) return g.dx > 0 ? 'previous' : 'next';
  return null;
}

/** `fn` run once calls have stopped for `ms`, with the last call's arguments. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): ((...args: A) => void) & { cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  return Object.assign(run, { cancel: () => clearTimeout(timer) });
}
