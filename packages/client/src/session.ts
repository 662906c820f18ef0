/** Tokens of a signed-in client, and how the client keeps them fresh. */
import type { TokenResponse } from '@haul/shared';

export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token stops working. */
  expiresAt: number;
  userId: string;
}

export function toSession(t: TokenResponse, now = Date.now()): Session {
  return { accessToken: t.access_token, refreshToken: t.refresh_token, expiresAt: now + t.expires_in * 1000, userId: t.sub };
}

/** Where a client keeps its session: the browser's storage, a file for the command line, memory for a script. */
export interface SessionStore {
  /** The current session. */
  load(): Session | null | Promise<Session | null>;
  /** The session read again from storage shared with other tabs or processes (before a refresh); load() when absent. */
  reload?(): Session | null | Promise<Session | null>;
  /** Keeps new tokens, or forgets them (null) when the session has ended. */
  save(session: Session | null): void | Promise<void>;
}

export function memorySessionStore(initial: Session | null = null): SessionStore {
  let s = initial;
  return { load: () => s, save: (next) => void (s = next) };
}
