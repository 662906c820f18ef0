/** The signed-in session: tokens kept in localStorage so a reload stays signed in. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { TokenResponse } from '@haul/shared';

export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token stops working. */
  expiresAt: number;
  userId: string;
}

interface SessionState {
  session: Session | null;
  signIn: (t: TokenResponse, now?: number) => void;
  signOut: () => void;
}

export function toSession(t: TokenResponse, now = Date.now()): Session {
  return { accessToken: t.access_token, refreshToken: t.refresh_token, expiresAt: now + t.expires_in * 1000, userId: t.sub };
}

export const useSessionStore = create<SessionState>()(
  persist(
    (set) => ({
      session: null,
      signIn: (t, now) => set({ session: toSession(t, now) }),
      signOut: () => set({ session: null }),
    }),
    { name: 'haul.session' },
  ),
);
