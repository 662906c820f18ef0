/** Sign-in, sign-up, sign-out and the signed-in user's info. */
import { haul } from '../../lib/api-client';
import { clearLocalUser } from '../sync/local-db';
import { useSessionStore } from './session-store';

/** Signs in and keeps the session (the store, so the app follows). */
export async function signIn(username: string, password: string): Promise<void> {
  const tokens = await haul.call('signIn', { body: { username, password } });
  await haul.signIn(tokens);
}

/** Creates the account, which signs it in. */
export async function signUp(email: string, password: string): Promise<void> {
  const tokens = await haul.call('signUp', { body: { email, password } });
  await haul.signIn(tokens);
}

export const getMe = () => haul.call('getMe');
// Only the storage meter reads this: the monthly quotas (with_quotas) are not asked for.
export const getAbout = () => haul.call('getAbout');

/**
 * Ends this session on the server (best effort), or with `everywhere` every session of the account, its download
 * links included; then forgets the session and its local copy.
 */
export async function signOut(opts: { everywhere?: boolean } = {}): Promise<void> {
  const session = useSessionStore.getState().session;
  if (!session) return;
  // Everywhere must reach the server while this session can still ask; an error leaves the person signed in.
  if (opts.everywhere) await haul.call('signOutEverywhere');
  useSessionStore.getState().signOut();
  await Promise.allSettled([
    opts.everywhere ? null : haul.call('revokeToken', { body: { token: session.refreshToken } }),
    clearLocalUser(session.userId),
  ]);
}
