/** The app's side of the first paint (paint.ts): it goes as soon as the app shows its own list, or anything else. */
import type {} from '../files/first-page';
import { FIRST_PAINT_ID } from './paint-keys';

/** Removes the first paint, and stops one still to come (its answer not yet arrived) from being drawn. */
export function dropFirstPaint(): void {
  window.__haulFirstPaintDone = true;
  document.getElementById(FIRST_PAINT_ID)?.remove();
}

/** The longest the first paint may cover the app: past it the app shows whatever state it is in. */
export const FIRST_PAINT_MAX_MS = 5000;
