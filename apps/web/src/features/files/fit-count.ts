/**
 * How many items, in order, fit a row `room` px wide with `gap` px between them: all of them, or as many as leave room
 * for the "more" button (`moreWidth`) that holds the rest.
 */
export function fitCount(widths: readonly number[], room: number, gap: number, moreWidth: number): number {
  const all = widths.reduce((sum, w) => sum + w, 0) + gap * Math.max(0, widths.length - 1);
  if (all <= room) return widths.length;
  let used = moreWidth;
  let n = 0;
  for (const w of widths) {
    if (used + gap + w > room) break;
    used += gap + w;
    n++;
  }
  return n;
}
