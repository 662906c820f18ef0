import i18n from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '@haul/client';
import { useSessionStore } from '../features/auth/session-store';
import { currentToken, haul } from './api-client';
import { ApiError, isApiError, LOCAL_ERROR } from './api-error';

const HOUR = 3_600_000;
const session = (name: string, expiresIn: number): Session => ({
  accessToken: `access-${name}`,
  refreshToken: `refresh-${name}`,
  expiresAt: Date.now() + expiresIn,
  userId: 'u1',
});
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const tokens = (name: string) => ({ token_type: 'Bearer', access_token: `access-${name}`, refresh_token: `refresh-${name}`, expires_in: 3600, sub: 'u1' });
const ME = { sub: 'u1', name: 'Ada', email: 'ada@example.com' };

/** The requests the app sent, and a server that answers them one by one. */
let sent: { url: string; init: RequestInit }[];
function serve(...answers: ((url: string) => Response)[]) {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      const answer = answers.shift();
      if (!answer) throw new TypeError('Failed to fetch');
      return answer(url);
    }),
  );
}
const header = (i: number, name: string) => (sent[i]!.init.headers as Record<string, string>)[name];

/** What another tab wrote: the persisted store's own format. */
const otherTabSaved = (s: Session | null) => localStorage.setItem('haul.session', JSON.stringify({ state: { session: s }, version: 0 }));

beforeAll(async () => {
  await i18n.init({ lng: 'de', resources: { de: { translation: { errors: { network: 'Keine Verbindung' } } } } });
});

beforeEach(() => {
  localStorage.clear();
  useSessionStore.getState().signOut();
});

afterEach(() => vi.unstubAllGlobals());

describe('the web app’s API client', () => {
  it('calls a route by name with the token, the language and the query, and answers the parsed JSON', async () => {
    useSessionStore.getState().signIn(session('a', HOUR));
    serve(() => json(200, { kind: 'drive#fileList', files: [], next_page_token: '', sync_time: '' }));
    const page = await haul.call('listFiles', { query: { parent_id: 'f1', limit: 50, with_audit: 'true' } });
    expect(page.files).toEqual([]);
    expect(sent[0]!.url).toBe('/drive/v1/files?parent_id=f1&limit=50&with_audit=true');
    expect(sent[0]!.init.method).toBe('GET');
    expect(header(0, 'Authorization')).toBe('Bearer access-a');
    expect(header(0, 'Accept-Language')).toBe('de');
  });

  it('refreshes a token close to expiry and keeps the new session in the store', async () => {
    useSessionStore.getState().signIn(session('a', 30_000));
    otherTabSaved(session('a', 30_000));
    serve(
      () => json(200, tokens('b')),
      () => json(200, ME),
    );
    await expect(haul.call('getMe')).resolves.toMatchObject({ name: 'Ada' });
    expect(sent[0]!.url).toBe('/v1/auth/token');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-a' });
    expect(header(1, 'Authorization')).toBe('Bearer access-b');
    expect(useSessionStore.getState().session).toMatchObject({ accessToken: 'access-b', refreshToken: 'refresh-b' });
  });

  it('uses the tokens another tab already rotated instead of replaying the old refresh token', async () => {
    useSessionStore.getState().signIn(session('a', 30_000));
    otherTabSaved(session('b', HOUR));
    serve(() => json(200, ME));
    expect(await currentToken()).toBe('access-b');
    await haul.call('getMe');
    expect(sent.map((s) => s.url)).toEqual(['/v1/user/me']);
    expect(header(0, 'Authorization')).toBe('Bearer access-b');
  });

  it('signs out when the server refuses the refresh, and throws the one ApiError class', async () => {
    useSessionStore.getState().signIn(session('a', 30_000));
    otherTabSaved(session('a', 30_000));
    serve(
      () => json(400, { error: 'invalid_grant', error_description: 'Sign in again.' }),
      () => json(401, { error: 'unauthenticated', error_description: 'No valid access token.' }),
    );
    const err = await haul.call('getMe').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(isApiError(err, 'unauthenticated')).toBe(true);
    expect(useSessionStore.getState().session).toBeNull();
  });

  it('keeps the session another tab stored while this one was refused, instead of signing every tab out', async () => {
    useSessionStore.getState().signIn(session('a', 30_000));
    otherTabSaved(session('a', 30_000));
    serve(
      () => {
        // The other tab rotated the tokens just as this tab's refresh was turned down.
        otherTabSaved(session('b', HOUR));
        return json(401, { error: 'invalid_grant', error_description: 'Sign in again.' });
      },
      () => json(200, ME),
    );
    await haul.call('getMe');
    expect(useSessionStore.getState().session).toMatchObject({ refreshToken: 'refresh-b' });
    expect(JSON.parse(localStorage.getItem('haul.session')!).state.session).toMatchObject({ refreshToken: 'refresh-b' });
  });

  it('turns a network failure into a local error in the reader’s language, and keeps the session', async () => {
    useSessionStore.getState().signIn(session('a', HOUR));
    serve();
    const err = await haul.call('getAbout').catch((e: unknown) => e);
    expect(isApiError(err, LOCAL_ERROR)).toBe(true);
    expect((err as ApiError).message).toBe('Keine Verbindung');
    expect(useSessionStore.getState().session?.accessToken).toBe('access-a');
  });
});
