/** Third-party apps: the consent screen's calls and the person's connected apps. */
import { haul } from '../../lib/api-client';
import type { CONTRACT, RouteQuery } from '@haul/shared';
import { isApiError } from '../../lib/api-error';

/** The authorization request, as the app put it in the consent screen's address (RFC 6749 §4.1.1, RFC 7636). */
export type AuthorizeRequest = RouteQuery<typeof CONTRACT.authorizeInfo>;

const FIELDS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/** The request in `search`, or null when it lacks what identifies the app and where to answer. */
export function readRequest(search: URLSearchParams): AuthorizeRequest | null {
  const out: Record<string, string> = {};
  for (const f of FIELDS) {
    const v = search.get(f);
    if (v !== null) out[f] = v;
  }
  return out.client_id && out.redirect_uri ? (out as unknown as AuthorizeRequest) : null;
}

export const authorizeInfo = (query: AuthorizeRequest) => haul.call('authorizeInfo', { query });
export const authorizeDetect = async (query: AuthorizeRequest) => (await haul.call('authorizeDetect', { query })).consented;
/** Allows the app (with a sudo token unless this session allowed it before); answers where the browser goes next. */
export const allowApp = async (body: AuthorizeRequest, sudoToken?: string) => (await haul.call('authorize', { body: { ...body, ...(sudoToken ? { sudo_token: sudoToken } : {}) } })).redirect_url;

/** Where to send the browser when the person says no (RFC 6749 §4.1.2.1): access_denied, with the app's state. */
export function deniedUrl(redirectUri: string, state: string): string {
  const u = new URL(redirectUri);
  u.searchParams.append('error', 'access_denied');
  if (state) u.searchParams.append('state', state);
  return u.toString();
}

/** The app's own redirect the server asks for when a request is faulty but the app and its redirect URI are sound. */
export function sendBackUrl(err: unknown): string | null {
  if (!isApiError(err, 'invalid_argument')) return null;
  const d = err.body?.details?.[0] as { reason?: string; redirect?: string } | undefined;
  return d?.reason === 'REDIRECT' && d.redirect ? d.redirect : null;
}

export const listApps = async () => (await haul.call('listApps')).apps;
export const disconnectApp = (clientId: string) => haul.call('revokeApp', { params: { client_id: clientId } });
