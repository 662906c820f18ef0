/**
 * The typed client of the Haul API: `client.call('listFiles', { query })` takes and returns the shapes the contract
 * gives that route, attaches the bearer token, refreshes it before it expires (and once more on a 401), and turns
 * every failure into ApiError. The web app, the command line and the benchmarks all call through here.
 * Its types come from the contract; at run time it reads only the generated route table (no TypeBox, no schemas).
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { Contract, RouteAnswer, RouteDef, RouteName, TokenResponse } from '@haul/shared';
import { fillPath, takesBearer } from '@haul/shared/plain';
import { ApiError, errorOf, LOCAL_ERROR } from './errors.js';
import { ROUTES, type RouteEntry } from './route-table.js';
import { memorySessionStore, toSession, type Session, type SessionStore } from './session.js';

/** Refresh this long before the access token expires, so a request never races its expiry. */
export const REFRESH_MARGIN_MS = 60_000;

export interface ClientOptions {
  /** Where the server is: '' for the page's own origin. */
  baseUrl?: string;
  sessions?: SessionStore;
  fetch?: typeof fetch;
  /** Headers every call carries (Accept-Language, User-Agent). */
  headers?: () => Record<string, string>;
  /** Runs a refresh holding a lock other tabs or processes share: refresh tokens rotate, and a replayed one ends the session. */
  lock?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Called when the server has ended the session. */
  onSignedOut?: () => void;
  /** The message of a network failure, in the reader's language. */
  networkMessage?: () => string;
}

type Part<K extends string, S, Required extends boolean> = S extends TSchema
  ? Required extends true
    ? { [P in K]: Static<S> }
    : { [P in K]?: Static<S> }
  : { [P in K]?: undefined };

/** What a call of route `D` takes: its path parameters and body (when it has them), its query, and a signal. */
export type CallInput<D extends RouteDef> = Part<'params', D['params'], true> &
  Part<'query', D['query'], false> &
  Part<'body', D['body'], true> & { signal?: AbortSignal; headers?: Record<string, string> };
type Args<D extends RouteDef> = Record<never, never> extends CallInput<D> ? [input?: CallInput<D>] : [input: CallInput<D>];

/** Every route's answer type, computed once (looking them up keeps the compiler's work shallow). */
type Answers = { [K in RouteName]: RouteAnswer<Contract[K]> };
export type Answer<N extends RouteName> = Answers[N];

/** `path?query` of a route with its parameters filled in. */
export function routeUrl(def: RouteEntry, input: { params?: unknown; query?: unknown } = {}): string {
  const path = fillPath(def.path, (input.params ?? {}) as Record<string, unknown>);
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((item) => qs.append(k, String(item)));
    else qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

export class HaulClient {
  readonly baseUrl: string;
  readonly sessions: SessionStore;
  private refreshing: Promise<string | null> | null = null;

  constructor(private readonly opts: ClientOptions = {}) {
    this.baseUrl = (opts.baseUrl ?? '').replace(/\/+$/, '');
    this.sessions = opts.sessions ?? memorySessionStore();
  }

  /** Calls a route by its contract name and returns its answer (parsed JSON, or the Response of a raw body). */
  call<N extends RouteName>(name: N, ...args: NoInfer<Args<Contract[N]>>): Promise<NoInfer<Answer<N>>>;
  async call(name: RouteName, input?: CallInput<RouteDef>): Promise<unknown> {
    const def = ROUTES[name];
    const res = await this.send(def, input ?? {});
    if (def.raw) return res;
    const text = await res.text();
    return text ? JSON.parse(text) : {};
  }

  /** Sends a route's request; answers the Response when it succeeded, throws ApiError when not. */
  async send(def: RouteEntry, input: CallInput<RouteDef>): Promise<Response> {
    const needsUser = takesBearer(def.auth);
    let res = await this.fetchOnce(def, input, needsUser ? await this.token() : await this.tokenIfValid());
    let held = await this.sessions.load();
    if (res.status === 401 && needsUser && held) {
      const token = await this.refresh();
      held = await this.sessions.load();
      if (token) res = await this.fetchOnce(def, input, token);
    }
    if (!res.ok) {
      const err = await errorOf(res);
      if (err.code === 'unauthenticated' && needsUser) await this.signedOut(held);
      throw err;
    }
    return res;
  }

  /** The absolute URL of a route (for links and for clients that send their own requests, like tus). */
  url(name: RouteName, input: { params?: unknown; query?: unknown } = {}): string {
    return this.baseUrl + routeUrl(ROUTES[name], input);
  }

  /** Keeps tokens from sign-in or sign-up. */
  async signIn(tokens: TokenResponse): Promise<Session> {
    const session = toSession(tokens);
    await this.sessions.save(session);
    return session;
  }

  /** A usable access token, refreshed when close to expiry; null when signed out. */
  async token(): Promise<string | null> {
    const session = await this.sessions.load();
    if (!session) return null;
    if (session.expiresAt - Date.now() > REFRESH_MARGIN_MS) return session.accessToken;
    return (await this.refresh()) ?? session.accessToken;
  }

  private async tokenIfValid(): Promise<string | null> {
    const session = await this.sessions.load();
    return session && session.expiresAt > Date.now() ? session.accessToken : null;
  }

  /**
   * One refresh at a time. Inside the lock the session is read again from shared storage, so a client whose neighbour
   * (another tab, another process) already rotated the tokens uses the new ones instead of replaying the old refresh
   * token, which the server takes as stolen and answers by ending the session.
   */
  refresh(): Promise<string | null> {
    const lock = this.opts.lock ?? (<T>(fn: () => Promise<T>) => fn());
    this.refreshing ??= (async () => {
      const before = await this.sessions.load();
      return lock(async () => {
        const session = await (this.sessions.reload ?? this.sessions.load).call(this.sessions);
        if (!session) return null;
        if (before && session.refreshToken !== before.refreshToken && session.expiresAt - Date.now() > REFRESH_MARGIN_MS) return session.accessToken;
        const res = await this.fetchOnce(ROUTES.refreshToken, { body: { grant_type: 'refresh_token', refresh_token: session.refreshToken } }, null);
        if (!res.ok) {
          // Only a refused grant ends the session; a network failure leaves it for the next try.
          if (res.status === 400 || res.status === 401) await this.signedOut(session);
          return null;
        }
        return (await this.signIn((await res.json()) as TokenResponse)).accessToken;
      });
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Forgets `refused`, the session the server turned down. Another tab or process may have stored newer tokens since
   * this one read them (storage is shared): those were not refused, and clearing them would sign every tab out.
   */
  private async signedOut(refused: Session | null): Promise<void> {
    const stored = await (this.sessions.reload ?? this.sessions.load).call(this.sessions);
    if (stored && stored.refreshToken !== refused?.refreshToken) return;
    await this.sessions.save(null);
    this.opts.onSignedOut?.();
  }

  private async fetchOnce(def: RouteEntry, input: CallInput<RouteDef>, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { ...this.opts.headers?.(), ...input.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (input.body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await (this.opts.fetch ?? fetch)(this.baseUrl + routeUrl(def, input), {
        method: def.method,
        headers,
        body: input.body === undefined ? undefined : JSON.stringify(input.body),
        signal: input.signal,
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new ApiError(0, LOCAL_ERROR, this.opts.networkMessage?.() ?? `Cannot reach the server at ${this.baseUrl || 'this address'} (${why}).`);
    }
  }
}
