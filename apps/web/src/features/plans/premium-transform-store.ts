/** Whether the premium-transform dialog is open: its own module, so the drive loads the dialog only when it opens. */
import { create } from 'zustand';

export const usePremiumTransform = create<{ shown: boolean; set: (shown: boolean) => void }>()((set) => ({ shown: false, set: (shown) => set({ shown }) }));
