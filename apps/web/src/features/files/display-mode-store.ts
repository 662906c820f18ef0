/**
 * How a list is shown (seed 000 §3 "Display mode"): sort order, folders on top, list or grid; kept globally or per
 * folder. Per-folder entries are trimmed to the 1000 newest once there are more than 2000.
 */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { DEFAULT_DISPLAY, DISPLAY_KEY, SAVED_DEFAULTS, modeOf, type DisplayMode, type SavedDisplay, type ViewType } from './display-mode';

export { DEFAULT_DISPLAY, type DisplayMode, type ViewType };

const TRIM_ABOVE = 2000;
const KEEP = 1000;

interface DisplayState extends SavedDisplay {
  /** The mode in force for a route, folder or search key. */
  modeFor: (key: string) => DisplayMode;
  update: (key: string, change: Partial<Omit<DisplayMode, 'last_modified'>>, now?: number) => void;
  setGlobalSettings: (s: { orderSettingGlobal?: boolean; viewSettingGlobal?: boolean }) => void;
}

/** Keeps the newest KEEP entries once there are more than TRIM_ABOVE. */
export function trimModes(byKey: Record<string, DisplayMode>): Record<string, DisplayMode> {
  const entries = Object.entries(byKey);
  if (entries.length <= TRIM_ABOVE) return byKey;
  entries.sort((a, b) => b[1].last_modified - a[1].last_modified);
  return Object.fromEntries(entries.slice(0, KEEP));
}

export const useDisplayMode = create<DisplayState>()(
  persist(
    (set, get) => ({
      ...SAVED_DEFAULTS,
      modeFor: (key) => modeOf(get(), key),
      update: (key, change, now = Date.now()) =>
        set((s) => {
          const orderPart = { orderType: change.orderType, pinFoldersTop: change.pinFoldersTop };
          const viewPart = { viewType: change.viewType };
          const defined = <T extends object>(o: T) =>
            Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
          const toGlobal = { ...(s.orderSettingGlobal ? defined(orderPart) : {}), ...(s.viewSettingGlobal ? defined(viewPart) : {}) };
          const toLocal = { ...(!s.orderSettingGlobal ? defined(orderPart) : {}), ...(!s.viewSettingGlobal ? defined(viewPart) : {}) };
          const next: Partial<DisplayState> = { global: { ...s.global, ...toGlobal, last_modified: now } };
          if (Object.keys(toLocal).length) {
            next.byKey = trimModes({ ...s.byKey, [key]: { ...(s.byKey[key] ?? s.global), ...toLocal, last_modified: now } });
          }
          return next;
        }),
      setGlobalSettings: (g) => set(g),
    }),
    {
      name: DISPLAY_KEY,
      partialize: ({ global, orderSettingGlobal, viewSettingGlobal, byKey }) => ({ global, orderSettingGlobal, viewSettingGlobal, byKey }),
    },
  ),
);
