/**
 * The viewer in the address (the drive only): `?preview=<fileId>` added to the page's own path and query, so a file
 * open in the viewer is a history entry and a link. Pure helpers and the last list closed, for Forward.
 */
import type { DriveFile } from '@haul/shared';
import type { Scene } from './viewer-store';

export const PREVIEW_PARAM = 'preview';

/** The file the address names, or null. */
export function previewIn(search: string): string | null {
  return new URLSearchParams(search).get(PREVIEW_PARAM) || null;
}

/** The query string with the file named (or no file when `id` is null), other parameters kept in their order. */
export function withPreview(search: string, id: string | null): string {
  const params = new URLSearchParams(search);
  if (id) params.set(PREVIEW_PARAM, id);
  else params.delete(PREVIEW_PARAM);
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** Set in Haul's own player window: the viewer shows the player alone (no header, no strip). */
export const WINDOW_PARAM = 'window';

/** Whether this page is Haul's player window. */
export const inPlayerWindow = (search: string) => new URLSearchParams(search).get(WINDOW_PARAM) === 'player';

/** The address of a player window on `id`, over the same page (so the same list) as this one. */
export function playerWindowAddress(pathname: string, search: string, id: string): string {
  const params = new URLSearchParams(withPreview(search, id));
  params.set(WINDOW_PARAM, 'player');
  return `${pathname}?${params}`;
}

/** The page under the viewer: its path and query without the file. */
export const placeOf = (pathname: string, search: string) => pathname + withPreview(search, null);

// History state of an entry the viewer pushed: closing it goes back to the entry before, which is the same page.
const ENTRY = 'haulViewerEntry';
export const entryState = () => ({ [ENTRY]: true });
export const isViewerEntry = (state: unknown) => typeof state === 'object' && state !== null && ENTRY in state;

/** The scene a page opens files in (seed 001 §2), from the first part of its path. */
export function sceneOf(pathname: string): Scene {
  const view = pathname.split('/')[1];
  return view === 'star'
    ? 'starred_file'
    : view === 'recent'
      ? 'home_recent'
      : view === 'watch-history'
        ? 'home_play_history'
        : 'cloud_page';
}

interface ClosedList {
  place: string;
  files: DriveFile[];
  scene: Scene;
}

let closed: ClosedList | null = null;

/** Keeps the list the viewer just closed on a page, so Forward reopens the file among the same neighbours. */
export function rememberClosed(list: ClosedList): void {
  closed = list;
}

/** The list last closed on this page, when it holds the file. */
export function closedListFor(place: string, id: string): ClosedList | null {
  return closed && closed.place === place && closed.files.some((f) => f.id === id) ? closed : null;
}
