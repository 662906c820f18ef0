/** Whether the beginner guide shows; kept apart from the guide itself, so a link can open it without loading it. */
import { create } from 'zustand';

/** Seed 001: never on screens 768 px or narrower. */
const WIDE = '(min-width: 769px)';

export const useGuide = create<{ open: boolean; show: () => void; hide: () => void }>((set) => ({
  open: false,
  show: () => set({ open: window.matchMedia(WIDE).matches }),
  hide: () => set({ open: false }),
}));
