/** What a drag box (mouse) or a swipe down the check boxes (finger) selects in the file view's list or grid. */
import type { DriveFile } from '@haul/shared';

/** A drag box in the scrolled content's coordinates: where it started (0) and where the pointer is (1). */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface BoxLayout {
  rowH: number;
  rowCount: number;
  cols: number;
  /** A card's width; only the grid has columns. */
  cardW: number;
  grid: boolean;
  /** Where the first row starts (below the list's column titles). */
  top?: number;
}

/** Ids of the items whose slots the box touches, row by row. */
export function idsInBox(box: Box, files: DriveFile[], l: BoxLayout): string[] {
  const top = l.top ?? 0;
  const r0 = Math.max(0, Math.floor((Math.min(box.y0, box.y1) - top) / l.rowH));
  const r1 = Math.min(l.rowCount - 1, Math.floor((Math.max(box.y0, box.y1) - top) / l.rowH));
  const c0 = l.grid ? Math.max(0, Math.floor(Math.min(box.x0, box.x1) / l.cardW)) : 0;
  const c1 = l.grid ? Math.min(l.cols - 1, Math.floor(Math.max(box.x0, box.x1) / l.cardW)) : 0;
  const ids: string[] = [];
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (files[r * l.cols + c]) ids.push(files[r * l.cols + c]!.id);
  return ids;
}

/** What a swipe from item `from` to item `to` selects: what was selected when it began, and every item between. */
export function idsInSwipe(base: ReadonlySet<string>, from: number, to: number, files: DriveFile[]): Set<string> {
  const ids = new Set(base);
  for (let k = Math.min(from, to); k <= Math.max(from, to); k++) if (files[k]) ids.add(files[k]!.id);
  return ids;
}
