/** Sign-in, sign-up, sign-out and the signed-in user's info. */
import type { About, TokenResponse, UserInfo } from '@haul/shared';
import { api, request } from '../../lib/api-client';
import { clearLocalUser } from '../sync/local-db';
import { useSessionStore } from './session-store';

export const signIn = (username: string, password: string) =>
  request<TokenResponse>('POST', '/v1/auth/signin', { body: { username, password }, anonymous: true });

export const signUp = (email: string, password: string) =>
  request<TokenResponse>('POST', '/v1/auth/signup', { body: { email, password }, anonymous: true });

export const getMe = () => api.get<UserInfo>('/v1/user/me');
export const getAbout = () => api.get<About>('/drive/v1/about', { with_quotas: true });

/**
 * Ends this session on the server (best effort), or with `everywhere` every session of the account, its download
 * links included; then forgets the session and its local copy.
 */
export async function signOut(opts: { everywhere?: boolean } = {}): Promise<void> {
  const session = useSessionStore.getState().session;
  if (!session) return;
  // Everywhere must reach the server while this session can still ask; an error leaves the person signed in.
  if (opts.everywhere) await api.delete('/v1/user/sessions');
  useSessionStore.getState().signOut();
  await Promise.allSettled([
    opts.everywhere ? null : request('POST', '/v1/auth/revoke', { body: { token: session.refreshToken }, anonymous: true }),
    clearLocalUser(session.userId),
  ]);
}
