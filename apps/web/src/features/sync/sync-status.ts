/**
 * Whether a sync runs (seed 000 §4 "Sync of files"). The syncing flag stays on 3 s after the last sync ends, so syncs
 * that follow one another (a folder, then what changed) count as one stretch; the animation shows after 3 s of a
 * stretch while a sync runs, and hides at once when none does.
 */
import { create } from 'zustand';

export const SYNC_ANIMATION_DELAY_MS = 3000;
/** How long the syncing flag outlasts the last sync. */
export const SYNC_FLAG_HOLD_MS = 3000;

interface SyncStatus {
  /** Syncs running now. */
  active: number;
  /** On while a sync runs and for 3 s after the last one ends. */
  syncing: boolean;
  /** Epoch ms when the current stretch of syncing began; null once the flag drops. */
  since: number | null;
  begin: () => void;
  end: () => void;
}

let holdTimer: ReturnType<typeof setTimeout> | undefined;

export const useSyncStatus = create<SyncStatus>()((set, get) => ({
  active: 0,
  syncing: false,
  since: null,
  begin: () => {
    clearTimeout(holdTimer);
    set((s) => ({ active: s.active + 1, syncing: true, since: s.since ?? Date.now() }));
  },
  end: () => {
    set((s) => ({ active: Math.max(0, s.active - 1) }));
    if (get().active > 0) return;
    clearTimeout(holdTimer);
    holdTimer = setTimeout(() => {
      if (get().active === 0) set({ syncing: false, since: null });
    }, SYNC_FLAG_HOLD_MS);
  },
}));
