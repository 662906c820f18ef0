/**
 * The one HTTP client: every call goes through `haul.call('routeName', …)`, typed from the contract. It attaches the
 * bearer token and Accept-Language, refreshes the token silently, and turns failures into ApiError. Components never
 * call fetch directly; feature `api` modules do, through here.
 */
import { HaulClient, type SessionStore } from '@haul/client';
import i18n from 'i18next';
import { useSessionStore } from '../features/auth/session-store';

/** The session lives in the persisted zustand store, shared with the other tabs through localStorage. */
const sessions: SessionStore = {
  load: () => useSessionStore.getState().session,
  // Before a refresh: another tab may have rotated the tokens since this one last read them.
  reload: async () => {
    await useSessionStore.persist.rehydrate();
    return useSessionStore.getState().session;
  },
  // Saving null is the sign-out the client does when the server ends the session: the store is all there is to clear.
  save: (session) => (session ? useSessionStore.getState().signIn(session) : useSessionStore.getState().signOut()),
};

/** Refresh tokens rotate and a replayed one ends the session, so tabs refresh one at a time (Web Locks, where present). */
function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request('haul.refresh', fn) as Promise<T>) : fn();
}

export const haul = new HaulClient({
  baseUrl: '',
  sessions,
  lock: withRefreshLock,
  headers: () => ({ 'Accept-Language': i18n.language || 'en-US' }),
  networkMessage: () => i18n.t('errors.network'),
});

/** A usable access token (refreshed when close to expiry), for clients that send their own requests (tus). */
export const currentToken = (): Promise<string | null> => haul.token();
