/**
 * "Open when ready" of the cloud download dialog (the seed's speed_save): the new file opens in the viewer by itself
 * when its download completes. The choice is remembered in this browser; a deep link with speed_save=1 ticks it once.
 */
import { create } from 'zustand';

const KEY = 'haul.openWhenReady';

interface OpenWhenReady {
  /** The person's last choice. */
  remembered: boolean;
  /** A one-time choice from a link, for the next dialog only. */
  preset: boolean | null;
  remember: (on: boolean) => void;
}

export const useOpenWhenReady = create<OpenWhenReady>()((set) => ({
  remembered: (() => {
    try {
      return localStorage.getItem(KEY) === '1';
    } catch {
      return false;
    }
  })(),
  preset: null,
  remember: (on) => {
    localStorage.setItem(KEY, on ? '1' : '0');
    set({ remembered: on, preset: null });
  },
}));

/** Ticks (or unticks) the box of the next cloud download dialog, leaving the remembered choice alone; null: no preset. */
export function presetOpenWhenReady(on: boolean | null): void {
  useOpenWhenReady.setState({ preset: on });
}

/** The box's first state in a dialog opening now: a link's preset, else the remembered choice. */
export function initialOpenWhenReady(): boolean {
  const { preset, remembered } = useOpenWhenReady.getState();
  return preset ?? remembered;
}
