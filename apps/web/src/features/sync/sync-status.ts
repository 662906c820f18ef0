/** Whether a sync runs, for the syncing animation (shown after 3 s of syncing, hidden at once when it ends). */
import { create } from 'zustand';

export const SYNC_ANIMATION_DELAY_MS = 3000;

interface SyncStatus {
  active: number;
  /** Epoch ms when the current run of syncing began. */
  since: number | null;
  begin: () => void;
  end: () => void;
}

export const useSyncStatus = create<SyncStatus>()((set) => ({
  active: 0,
  since: null,
  begin: () => set((s) => ({ active: s.active + 1, since: s.since ?? Date.now() })),
  end: () => set((s) => (s.active <= 1 ? { active: 0, since: null } : { active: s.active - 1 })),
}));
