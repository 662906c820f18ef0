/**
 * Keeps the keyboard's place when what had focus disappears: a dialog that closes gives focus back to the control
 * that opened it, and a screen that replaces its list (a folder opened) puts it on the new list or its heading, never
 * on <body>, where the next Tab would start again from the top of the page.
 */
import { useEffect, type RefObject } from 'react';

/** Menu items come and go with their menu: the control that opened the menu is the place to come back to. */
const TRANSIENT = '[role=menu], [role=menuitem], [role=menuitemradio], [role=menuitemcheckbox]';
const DIALOG = '[role=dialog], [role=alertdialog]';
const TRAIL = 20;

/**
 * Focuses the screen's main content: its file list, else its heading, else the region itself. While the screen is
 * still loading (a skeleton) it waits and answers false, so the caller can try again once it has rendered, unless told
 * to take the region now.
 */
export function focusMain(main: HTMLElement | null, now = false): boolean {
  if (!main) return false;
  const list = main.querySelector<HTMLElement>('.file-view');
  if (list) {
    list.focus();
    return true;
  }
  const loading = main.querySelector('[aria-busy="true"]') !== null;
  if (loading && !now) return false;
  const target = (!loading && main.querySelector<HTMLElement>('h1')) || main;
  // A heading is not focusable by itself; -1 keeps it out of the Tab order.
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
  return true;
}

const shown = (el: HTMLElement) => el.isConnected && el.getClientRects().length > 0 && !el.closest('[inert]');

export function useFocusKeeper(main: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    // What had focus last, and the controls focused before it on this address (newest last).
    let last: HTMLElement | null = null;
    let trail: { el: HTMLElement; path: string }[] = [];

    const onFocusIn = (e: FocusEvent) => {
      const el = e.target;
      if (!(el instanceof HTMLElement)) return;
      last = el;
      if (el.closest(TRANSIENT)) return;
      trail = [...trail.filter((t) => t.el !== el && t.el.isConnected), { el, path: location.pathname }].slice(-TRAIL);
    };
    // Focus left on purpose (a click on empty space) is not lost: nothing to give back when that element goes later.
    const onFocusOut = (e: FocusEvent) => {
      const el = e.target;
      setTimeout(() => {
        if (el === last && last?.isConnected && document.activeElement === document.body) last = null;
      });
    };
    const restore = () => {
      const active = document.activeElement;
      if ((active && active !== document.body) || !last || last.isConnected) return;
      // A dialog still open keeps the keyboard: only its own controls, else its frame (which takes focus).
      const dialog = [...document.querySelectorAll<HTMLElement>(DIALOG)].at(-1);
      const within = (el: HTMLElement) => !dialog || dialog.contains(el);
      // A control still there on the same screen: the newest one (a dialog's opener, or the dialog under a closed one).
      trail.findLast((t) => t.path === location.pathname && within(t.el) && shown(t.el))?.el.focus();
      if (document.activeElement === document.body) {
        // None, or one that cannot take focus now (hidden): the screen's main content, once it has rendered.
        if (dialog) dialog.focus();
        else if (!focusMain(main.current)) return;
      }
      last = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    };

    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    // Removing the focused element fires no event; the removal itself is the sign.
    const observer = new MutationObserver(restore);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      observer.disconnect();
    };
  }, [main]);
}
