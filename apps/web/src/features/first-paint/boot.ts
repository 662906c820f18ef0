/**
 * Inlined into index.html at build time (vite.config.ts, firstPaint): once the early answer for the open folder arrives,
 * and unless the app already shows its own list, draws it (paint.ts) over the page until the app drops it (drop.ts).
 */
import { DEFAULT_DISPLAY, modeOf, type SavedDisplay } from '../files/display-mode';
import { LOCALE_KEY, pickLocale } from '../../lib/locale';
import { MOBILE_QUERY } from '../layout/media-queries';
import { paintShell } from './paint';
import type { Words } from './paint-keys';
import type { DriveFile } from '@haul/shared';
import type {} from '../files/first-page';

declare const __FIRST_PAINT_WORDS__: Record<string, Words>;

const early = window.__haulFirstPage;

function saved(): SavedDisplay {
  const empty = { global: DEFAULT_DISPLAY, orderSettingGlobal: true, viewSettingGlobal: true, byKey: {} };
  try {
    const s = JSON.parse(localStorage.getItem('haul.display') ?? 'null')?.state as Partial<SavedDisplay> | undefined;
    return { ...empty, ...s, global: { ...DEFAULT_DISPLAY, ...s?.global } };
  } catch {
    return empty;
  }
}

function paint(files: DriveFile[], folderId: string) {
  if (window.__haulFirstPaintDone || !files.length) return;
  const locale = pickLocale(localStorage.getItem(LOCALE_KEY), navigator.languages ?? [navigator.language]);
  const { root, fill } = paintShell(document, {
    files,
    folderId,
    mode: modeOf(saved(), `all:${folderId}`),
    locale,
    words: __FIRST_PAINT_WORDS__[locale] ?? __FIRST_PAINT_WORDS__['en-US']!,
    mobile: matchMedia(MOBILE_QUERY).matches,
    height: window.innerHeight,
  });
  document.body.append(root);
  fill();
}

if (early) {
  const folderId = early.folder;
  void early.page.then((page) => {
    if (!page) return;
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => paint(page.files, folderId), { once: true });
    else paint(page.files, folderId);
  });
}
