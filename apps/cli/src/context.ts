/** What every command works with: the typed client on the chosen server, and the output. */
import { HaulClient } from '@haul/client';
import { fileSessionStore, serverUrl } from './config.js';
import { apiFetch } from './http.js';
import { makeOutput, type Output } from './output.js';
import { VERSION } from './version.js';

export interface Ctx {
  server: string;
  client: HaulClient;
  out: Output;
}

export interface GlobalOptions {
  server?: string;
  json?: boolean;
}

export function makeContext(opts: GlobalOptions): Ctx {
  const server = serverUrl(opts.server);
  const client = new HaulClient({
    baseUrl: server,
    sessions: fileSessionStore,
    fetch: apiFetch,
    headers: () => ({ 'User-Agent': `haul-cli/${VERSION}` }),
  });
  return { server, client, out: makeOutput(!!opts.json) };
}
