/// <reference lib="webworker" />
/**
 * The installed app's service worker, scoped to /drive/. It keeps the built app (index.html and its scripts and styles)
 * so the drive opens without a network, and receives the share target's POST. It answers nothing else: API calls,
 * downloads, media, share pages and every other request go to the network as if it were not there, so no answer
 * about anyone's files is ever kept or shown from a cache.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { arrivalAddress, SHARE_TARGET_PATH, stashArrival } from './share-stash';

declare const self: ServiceWorkerGlobalScope;

const SHELL = '/drive/index.html';

// The build's list of files with their revisions. No directory index or clean URLs: /drive/ is a navigation, answered
// below from the network first, never straight from this cache.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();

// A new version takes over at once; pages already open keep running the scripts they loaded.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** Addresses of the web app's own pages (the server's isAppRoute, without the share pages outside this scope). */
const isAppPage = (url: URL) =>
  url.origin === self.location.origin && url.pathname.startsWith('/drive/') && !/^\/drive\/(v1|assets)\//.test(url.pathname);

// Pages come from the network (fresh index.html, the page's own headers); without one, from the kept copy.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && isAppPage(url),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch (err) {
      const shell = await matchPrecache(SHELL);
      if (shell) return shell;
      throw err;
    }
  },
);

// The share target: keep what came and open the drive on it. A form that cannot be read goes to the server, which
// answers it without the file.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === SHARE_TARGET_PATH,
  async ({ request }) => {
    const copy = request.clone();
    try {
      const key = await stashArrival(await request.formData());
      return Response.redirect(arrivalAddress(key), 303);
    } catch {
      return fetch(copy);
    }
  },
  'POST',
);
