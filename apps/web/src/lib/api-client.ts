/**
 * The one HTTP client: bearer token, Accept-Language, silent token refresh, and the seeds' error object turned
 * into ApiError. Components never call fetch directly; feature `api` modules do, through here.
 */
import type { ErrorBody, TokenResponse } from '@haul/shared';
import i18n from 'i18next';
import { useSessionStore } from '../features/auth/session-store';
import { ApiError, LOCAL_ERROR } from './api-error';

/** Refresh this long before the access token expires, so a request never races its expiry. */
const REFRESH_MARGIN_MS = 60_000;

type Query = Record<string, string | number | boolean | undefined | string[]>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Sign-in and sign-up calls carry no token. */
  anonymous?: boolean;
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((item) => qs.append(k, item));
    else qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

async function toError(res: Response): Promise<ApiError> {
  let body: Partial<ErrorBody> | undefined;
  try {
    body = (await res.json()) as Partial<ErrorBody>;
  } catch {
    body = undefined;
  }
  const code = body?.error ?? (res.status === 401 ? 'unauthenticated' : LOCAL_ERROR);
  const message = body?.error_description || body?.error || `${res.status} ${res.statusText}`;
  return new ApiError(res.status, code, message, body as ErrorBody | undefined);
}

async function send(method: string, path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'Accept-Language': i18n.language || 'en-US' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(withQuery(path, opts.query), {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, LOCAL_ERROR, i18n.t('errors.network'));
  }
}

let refreshing: Promise<string | null> | null = null;

/**
 * One refresh at a time, across this browser's tabs too: refresh tokens rotate, and the server takes a second use of
 * one as a stolen token and ends the session. Inside the lock the session is read again from storage, so a tab whose
 * neighbour already rotated uses the new tokens instead of replaying the old one.
 */
function refreshAccessToken(): Promise<string | null> {
  refreshing ??= withRefreshLock(async () => {
    const before = useSessionStore.getState().session;
    await useSessionStore.persist.rehydrate();
    const { session, signIn, signOut } = useSessionStore.getState();
    if (!session) return null;
    if (before && session.refreshToken !== before.refreshToken && session.expiresAt - Date.now() > REFRESH_MARGIN_MS) return session.accessToken;
    const res = await send('POST', '/v1/auth/token', { body: { grant_type: 'refresh_token', refresh_token: session.refreshToken } }, null);
    if (!res.ok) {
      // Only a refused grant ends the session; a network failure leaves it for the next try.
      if (res.status === 400 || res.status === 401) signOut();
      return null;
    }
    const tokens = (await res.json()) as TokenResponse;
    signIn(tokens);
    return tokens.access_token;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Runs `fn` holding the browser-wide refresh lock (Web Locks), or alone where the browser has none. */
function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request('haul.refresh', fn) as Promise<T>) : fn();
}

/** A usable access token (refreshed when close to expiry), for clients that send their own requests (tus). */
export async function currentToken(): Promise<string | null> {
  const session = useSessionStore.getState().session;
  if (!session) return null;
  if (session.expiresAt - Date.now() > REFRESH_MARGIN_MS) return session.accessToken;
  return (await refreshAccessToken()) ?? session.accessToken;
}

/** Calls the API and returns the parsed JSON answer; throws ApiError with the server's words on failure. */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(method, path, opts, opts.anonymous ? null : await currentToken());
  if (res.status === 401 && !opts.anonymous && useSessionStore.getState().session) {
    const token = await refreshAccessToken();
    if (token) res = await send(method, path, opts, token);
  }
  if (!res.ok) {
    const err = await toError(res);
    if (err.code === 'unauthenticated' && !opts.anonymous) useSessionStore.getState().signOut();
    throw err;
  }
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body: body ?? {} }),
  delete: <T>(path: string, query?: Query) => request<T>('DELETE', path, { query }),
};
