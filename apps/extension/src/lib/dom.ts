/** Small helpers of the extension's two pages. */

/** The element with this id; a page that lacks it is a build mistake, so it throws. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

/** Shows a sentence in a message element, styled as an error or not; '' hides it. */
export function say(el: HTMLElement, text: string, kind: 'ok' | 'error' | 'plain' = 'plain'): void {
  el.textContent = text;
  el.classList.toggle('error', kind === 'error');
  el.classList.toggle('ok', kind === 'ok');
}
