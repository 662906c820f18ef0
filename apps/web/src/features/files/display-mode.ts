/**
 * How a list is shown (seed 000 §3 "Display mode"), as plain data: the store (display-mode-store.ts) keeps it, and the
 * first paint from index.html reads the same saved state to lay out the rows the app will show.
 */
import type { SortOrder } from '@haul/shared';

export type ViewType = 'list' | 'grid';

export interface DisplayMode {
  orderType: SortOrder;
  pinFoldersTop: boolean;
  viewType: ViewType;
  last_modified: number;
}

export const DEFAULT_DISPLAY: DisplayMode = { orderType: 'MODIFY_TIME_DESC', pinFoldersTop: true, viewType: 'grid', last_modified: 0 };

/** What the store saves (localStorage `haul.display`). */
export interface SavedDisplay {
  global: DisplayMode;
  /** Apply a change to every folder (true) or only to the folder it was made in (false). */
  orderSettingGlobal: boolean;
  viewSettingGlobal: boolean;
  byKey: Record<string, DisplayMode>;
}

/** Where the store keeps it (localStorage), and what it holds before anything was chosen. */
export const DISPLAY_KEY = 'haul.display';
export const SAVED_DEFAULTS: SavedDisplay = { global: DEFAULT_DISPLAY, orderSettingGlobal: true, viewSettingGlobal: true, byKey: {} };

/** The key of a folder's own mode on a screen ('all', 'star'). */
export const folderModeKey = (view: string, folderId: string) => `${view}:${folderId}`;

/** The mode in force for a route, folder or search key. */
export function modeOf(s: SavedDisplay, key: string): DisplayMode {
  const local = s.byKey[key];
  return {
    ...s.global,
    ...(local && !s.orderSettingGlobal ? { orderType: local.orderType, pinFoldersTop: local.pinFoldersTop } : {}),
    ...(local && !s.viewSettingGlobal ? { viewType: local.viewType } : {}),
  };
}
