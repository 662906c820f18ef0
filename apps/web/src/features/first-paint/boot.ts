/**
 * Inlined into index.html at build time (vite.config.ts, firstPaint): once the early answer for the open folder
 * arrives, and unless the app already shows its own list, draws it (paint.ts) over the page until the app drops it
 * (drop.ts). In a build the app's entry script is started from here: at once when there is nothing to draw, else
 * after the drawing reached the screen, or once its scripts have all arrived if that comes first (from the cache),
 * or after START_AT_LATEST_MS should the answer be slow.
 */
import type { DriveFile } from '@haul/shared';
import { DEFAULT_DISPLAY, DISPLAY_KEY, SAVED_DEFAULTS, folderModeKey, modeOf, type SavedDisplay } from '../files/display-mode';
import { LOCALE_KEY, pickLocale } from '../../lib/locale';
import { MOBILE_QUERY } from '../layout/media-queries';
import type {} from '../files/first-page';
import { paintShell } from './paint';
import type { Words } from './paint-keys';

declare const __FIRST_PAINT_WORDS__: Record<string, Words>;
/** The app's entry script (null in development, where the page loads it itself). */
declare const __HAUL_ENTRY__: string | null;

/** The app starts by then whatever the early answer does: a slow server must not hold it back. */
const START_AT_LATEST_MS = 1000;

let started = false;
function startApp() {
  if (started || !__HAUL_ENTRY__) return;
  started = true;
  const s = document.createElement('script');
  s.type = 'module';
  s.crossOrigin = '';
  s.src = __HAUL_ENTRY__;
  document.body.append(s);
}

/** The display modes as the store saved them (its persisted `state`). */
function saved(): SavedDisplay {
  try {
    const s = JSON.parse(localStorage.getItem(DISPLAY_KEY) ?? 'null')?.state as Partial<SavedDisplay> | undefined;
    return { ...SAVED_DEFAULTS, ...s, global: { ...DEFAULT_DISPLAY, ...s?.global } };
  } catch {
    return SAVED_DEFAULTS;
  }
}

/** Draws the rows; whether it did. */
function paint(files: DriveFile[], folderId: string): boolean {
  if (window.__haulFirstPaintDone || !files.length) return false;
  const locale = pickLocale(localStorage.getItem(LOCALE_KEY), navigator.languages ?? [navigator.language]);
  const { root, fill } = paintShell(document, {
    files,
    folderId,
    mode: modeOf(saved(), folderModeKey('all', folderId)),
    locale,
    words: __FIRST_PAINT_WORDS__[locale] ?? __FIRST_PAINT_WORDS__['en-US']!,
    mobile: matchMedia(MOBILE_QUERY).matches,
    height: window.innerHeight,
  });
  document.body.append(root);
  fill();
  return true;
}

/** Settles once every script the page preloads has arrived (at once when they came from the cache). */
function scriptsLoaded(): Promise<unknown> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="script"]')];
  return Promise.all(
    links.map((l) =>
      window.__haulArrived?.has(l.href)
        ? null
        : new Promise((done) => {
            l.addEventListener('load', done);
            l.addEventListener('error', done);
          }),
    ),
  );
}

const early = window.__haulFirstPage;
if (!early) startApp();
else {
  setTimeout(startApp, START_AT_LATEST_MS);
  // Scripts from the cache arrive before the answer: then the app starts at once and shows the rows itself.
  void scriptsLoaded().then(startApp);
  const folderId = early.folder;
  void early.page.then(
    (page) => {
      // Started once the frame with the rows is on screen: the app's first task is long.
      if (page && paint(page.files, folderId)) requestAnimationFrame(() => setTimeout(startApp));
      else startApp();
    },
    startApp,
  );
}
