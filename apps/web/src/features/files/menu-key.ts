/**
 * Shift+F10 and the menu key open an item's menu where the item is, as a right click on it would. The list takes
 * the key down itself: Chromium's own keyboard context menu would come from the list (the focused element), at its
 * corner, and Windows sends it on key up, which the list swallows too.
 */
import type { KeyboardEvent } from 'react';

export const isMenuKey = (e: KeyboardEvent) => e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10');

/** A right click on the element, near its start: the list's context menu opens there for that item. */
export function contextMenuOn(el: HTMLElement): void {
  const r = el.getBoundingClientRect();
  const at = { clientX: r.left + Math.min(48, r.width / 2), clientY: r.top + r.height / 2 };
  el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2, ...at }));
}
