/**
 * On every http(s) page while "catch magnet links" is on: a plain click on a magnet link is stopped before the
 * browser hands it to another program, and the link goes to the extension's worker, which adds it to Haul. The
 * worker registers this script only while the switch is on, and tells pages already open when it is turned off (the
 * script stays in them until they reload, doing nothing). A click with a modifier key, or once the extension was
 * reloaded (its old scripts can no longer reach it), is left to the browser.
 */
const MARK = '__haulMagnetClicks';
const scope = globalThis as unknown as Record<string, unknown>;

if (!scope[MARK]) {
  scope[MARK] = true;
  let on = true;

  chrome.runtime.onMessage.addListener((message: unknown) => {
    const m = message as { type?: unknown; on?: unknown } | null;
    if (m?.type === 'haul.catch-magnets' && typeof m.on === 'boolean') on = m.on;
  });

  addEventListener(
    'click',
    (event) => {
      if (!on || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      const link = target?.closest<HTMLAnchorElement>('a[href^="magnet:" i]');
      if (!link || !chrome.runtime?.id) return;
      event.preventDefault();
      void chrome.runtime.sendMessage({ type: 'haul.magnet', url: link.href }).catch(() => undefined);
    },
    true,
  );
}
