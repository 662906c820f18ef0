/**
 * HTTP for the command line over node:http rather than the global fetch: in Node 20 fetch (undici) takes ~50 ms to
 * load on first use and holds the process ~100 ms at exit, most of a short command's time (bench/README.md, the
 * command line's section). Connections are kept for the next request; an idle one does not keep the process alive.
 */
import { Agent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';

const httpAgent = new Agent({ keepAlive: true });
let httpsAgent: Agent | undefined;

export interface SendInit {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string;
  signal?: AbortSignal | null;
}

/** Sends a request; resolves with the answer's head and its body as a stream (redirects are not followed). */
export async function send(url: string, init: SendInit = {}): Promise<IncomingMessage> {
  const u = new URL(url);
  let request = httpRequest;
  let agent = httpAgent;
  if (u.protocol === 'https:') {
    // TLS is loaded only for an https server.
    const https = await import('node:https');
    request = https.request as unknown as typeof httpRequest;
    agent = httpsAgent ??= new https.Agent({ keepAlive: true });
  }
  return new Promise((resolve, reject) => {
    const req = request(u, { method: init.method ?? 'GET', headers: init.headers, agent, signal: init.signal ?? undefined }, resolve);
    req.once('error', reject);
    req.end(init.body);
  });
}

/** Follows redirects of a GET (a download link may send the client on), up to five. */
export async function sendFollowing(url: string, init: SendInit = {}): Promise<IncomingMessage> {
  for (let hops = 0; ; hops++) {
    const res = await send(url, init);
    const location = res.headers.location;
    if (!location || !res.statusCode || res.statusCode < 300 || res.statusCode > 399 || hops === 5) return res;
    res.resume();
    url = new URL(location, url).href;
  }
}

export async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The fetch HaulClient is given: the parts of a Response it reads (status, headers, text, json), the body read whole. */
export const apiFetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
  let res: IncomingMessage;
  try {
    res = await send(String(input), { method: init.method, headers: init.headers as Record<string, string>, body: init.body as string | undefined, signal: init.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    // As fetch fails: the reason (ECONNREFUSED…) in the cause, where the client reads it.
    throw new TypeError('fetch failed', { cause: err });
  }
  const text = await readAll(res);
  const status = res.statusCode ?? 0;
  return {
    status,
    ok: status >= 200 && status < 300,
    statusText: res.statusMessage ?? '',
    headers: {
      get(name: string) {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
      },
    },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  } as unknown as Response;
}) as typeof fetch;
