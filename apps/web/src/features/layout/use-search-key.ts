/** `/` from anywhere but a text field goes to the header's search box, as on most sites that have one. */
import { useEffect, type RefObject } from 'react';

/** Inputs where a key types nothing: `/` there still means "search". */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

function typesText(el: EventTarget | null): boolean {
  if (el instanceof HTMLInputElement) return !NOT_TEXT.has(el.type);
  return el instanceof HTMLElement && (el.isContentEditable || el.closest('textarea, select') !== null);
}

export function useSearchKey(header: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.isComposing || e.defaultPrevented || typesText(e.target)) return;
      // A dialog or menu holds the keyboard (menus use keys to jump to items); the search box is behind it.
      if (document.querySelector('[role=dialog], [role=alertdialog], [role=menu]')) return;
      const box = header.current?.querySelector<HTMLInputElement>('input[type=search]');
      if (!box || box.getClientRects().length === 0) return;
      e.preventDefault();
      box.focus();
      box.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [header]);
}
