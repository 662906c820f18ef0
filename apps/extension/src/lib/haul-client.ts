/**
 * The API client of the connected Haul: the same typed client as the web app and the command line, keeping its
 * session in chrome.storage.local. The worker and the pages each hold one; they share the stored tokens, and refresh
 * one at a time under a Web Lock, because refresh tokens rotate and a replayed one ends the session.
 */
import { HaulClient, type SessionStore } from '@haul/client';
import { hostOf } from './address';
import { t } from './i18n';
import { forgetStored, readStored, writeStored } from './storage';

const sessions: SessionStore = {
  load: async () => (await readStored('session')) ?? null,
  save: (session) => (session ? writeStored({ session }) : forgetStored('session')),
};

function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  return navigator.locks ? (navigator.locks.request('haul.refresh', fn) as Promise<T>) : fn();
}

const clients = new Map<string, HaulClient>();

/** The client of the Haul at `server` (an origin), made once per page or worker. */
export function clientFor(server: string): HaulClient {
  let client = clients.get(server);
  if (!client) {
    client = new HaulClient({
      baseUrl: server,
      sessions,
      lock: withRefreshLock,
      headers: () => ({ 'Accept-Language': navigator.language || 'en-US' }),
      networkMessage: () => t('unreachable', { host: hostOf(server) }),
    });
    clients.set(server, client);
  }
  return client;
}

/** Where the extension stands: not connected, connected but signed out, or signed in (with its client). */
export type Connection =
  | { state: 'none' }
  | { state: 'signed-out'; server: string }
  | { state: 'signed-in'; server: string; client: HaulClient };

export async function currentConnection(): Promise<Connection> {
  const server = await readStored('server');
  if (!server) return { state: 'none' };
  if (!(await readStored('session'))) return { state: 'signed-out', server };
  return { state: 'signed-in', server, client: clientFor(server) };
}
