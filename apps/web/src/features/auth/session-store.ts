/** The signed-in session: tokens kept in localStorage so a reload stays signed in. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { Session } from '@haul/client';

interface SessionState {
  session: Session | null;
  signIn: (session: Session) => void;
  signOut: () => void;
}

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      session: null,
      signIn: (session) => set({ session }),
      signOut: () => set({ session: null }),
    }),
    { name: 'haul.session' },
  ),
);
