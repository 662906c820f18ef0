/** Registers the installed app's service worker (built from sw.ts) for the drive; share pages' visitors get none. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !window.location.pathname.startsWith('/drive')) return;
  // After the page has loaded: the worker's first fill of its cache never competes with the first screen.
  const register = () =>
    void navigator.serviceWorker
      .register('/drive/sw.js', { scope: '/drive/' })
      .catch((err: unknown) => console.warn('service worker not registered', err));
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
