/**
 * Fetches an http(s) link into a local file: redirects followed (bounded, each hop through the
 * network guard), resumed with Range from the bytes already on disk, hashed while streaming, written in
 * 1 MiB batches with the disk taking them in the background as they come (storage/synced-file-writer.ts).
 */
import { open as openFile, stat, truncate } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { parse as parseDisposition } from 'content-disposition';
import { cleanName } from '@haul/shared';
import { isDiskFull } from '../http/errors.js';
import { resumeHasher } from '../storage/resumable-hash.js';
import { appendBatched, BackgroundSync } from '../storage/synced-file-writer.js';
import { BlockedAddressError, guardedLookup, isPublicAddress, parseHttpLink } from './network-guard.js';
import { ORIGIN_BOUND_HEADERS } from './offline-credentials.js';

const MAX_REDIRECTS = 10;

export class FetchError extends Error {
  constructor(
    message: string,
    /** Worth trying again later (a dropped connection, a 5xx); otherwise the task fails. */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** More bytes than the download may fetch: `size` is what the origin said, or (unsaid) what had arrived. */
export class TooLargeError extends FetchError {
  constructor(
    message: string,
    readonly size: number,
  ) {
    super(message, false);
  }
}

export interface RemoteMeta {
  finalUrl: string;
  name: string;
  /** Total size when the server says it; null when it streams without a length. */
  size: number | null;
  mimeType: string;
  /** ETag or Last-Modified: with the final URL, what identifies this content for instant completion. */
  validator: string;
}

export interface FetchOptions extends RequestOptions {
  url: string;
  /** Sign-in and headers of the task (offline-credentials.ts); Authorization and Cookie stay with the link's origin. */
  headers?: Record<string, string>;
  /** Where the bytes go (appended to when it already holds some). */
  partPath: string;
  /** Refuse content larger than this many bytes, saying why. */
  maxBytes: number;
  tooLarge?: string;
  /** Called once the headers are in; return false to stop without reading the body (already stored). */
  onMeta?: (meta: RemoteMeta) => Promise<boolean> | boolean;
  onProgress?: (received: number, total: number | null) => void;
}

export interface FetchResult extends RemoteMeta {
  hash: string;
  size: number;
}

/** How a request to an origin goes: through the network guard, given up when silent this long. */
export interface RequestOptions {
  allowPrivateNetwork: boolean;
  /** An origin silent this long (connecting, or mid-body) is given up on, worth a retry. Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  method?: 'GET' | 'HEAD';
}

function open(url: URL, headers: Record<string, string>, opts: RequestOptions): Promise<IncomingMessage> {
  // Node skips `lookup` for address literals, so those are checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !opts.allowPrivateNetwork && !isPublicAddress(literal)) return Promise.reject(new BlockedAddressError(literal));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const options = { method: opts.method ?? 'GET', headers, lookup: guardedLookup(opts.allowPrivateNetwork), signal: opts.signal, timeout: opts.timeoutMs ?? 30_000 };
    const req = request(url, options, resolve);
    req.on('timeout', () => req.destroy(new FetchError('The server did not answer in time.', true)));
    req.on('error', (err) => reject(err instanceof FetchError ? err : Object.assign(err, { retryable: !('address' in err) })));
    req.end();
  });
}

/** File name from Content-Disposition, else the last path segment, else the host; made a valid name (cleanName). */
export function nameFrom(res: IncomingMessage, url: URL): string {
  return cleanName(rawNameFrom(res, url), url.hostname);
}

function rawNameFrom(res: IncomingMessage, url: URL): string {
  const cd = res.headers['content-disposition'];
  if (cd) {
    try {
      // The parser puts the decoded RFC 8187 name (filename*) in `filename`.
      const n = parseDisposition(cd).parameters.filename;
      if (n) return n.split(/[\\/]/).pop()!;
    } catch {
      /* fall back to the URL */
    }
  }
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (last) {
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  }
  return url.hostname;
}

async function sizeOnDisk(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

/**
 * Requests a link, following redirects (each hop through the network guard): the final answer, still unread, and
 * its address.
 */
export async function requestFollowing(link: string, headers: Record<string, string>, opts: RequestOptions): Promise<{ res: IncomingMessage; url: URL }> {
  let url = parseHttpLink(link);
  if (!url) throw new FetchError('Only http and https links can be fetched.', false);
  const origin = url.origin;
  let crossed = false;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    // As browsers do: once a redirect leaves the link's origin, its Authorization and Cookie are not sent again.
    crossed ||= url.origin !== origin;
    const sent = crossed ? Object.fromEntries(Object.entries(headers).filter(([k]) => !ORIGIN_BOUND_HEADERS.has(k.toLowerCase()))) : headers;
    const res = await open(url, { 'user-agent': 'Haul', accept: '*/*', ...sent }, opts);
    const status = res.statusCode ?? 0;
    if (!(status >= 300 && status < 400 && res.headers.location)) return { res, url };
    res.resume();
    const next = parseHttpLink(new URL(res.headers.location, url).toString());
    if (!next) throw new FetchError('The link redirects to something that is not http or https.', false);
    url = next;
  }
  throw new FetchError(`Too many redirects (more than ${MAX_REDIRECTS}).`, false);
}

export async function fetchToFile(opts: FetchOptions): Promise<FetchResult | null> {
  let offset = await sizeOnDisk(opts.partPath);
  const { res, url } = await requestFollowing(opts.url, { ...opts.headers, ...(offset > 0 ? { range: `bytes=${offset}-` } : {}) }, opts);
  const status = res.statusCode ?? 0;
  if (status >= 300 && status < 400) throw new FetchError(`The server answered ${status} without saying where to.`, false);
  if (status === 416 && offset > 0) {
    // Everything was already received before the interruption.
    res.resume();
  } else if (status !== 200 && status !== 206) {
    res.resume();
    throw new FetchError(`The server answered ${status} ${res.statusMessage ?? ''}`.trim() + '.', status >= 500 || status === 429);
  }
  if (status === 200 && offset > 0) {
    // The server ignored the range: start over.
    await truncate(opts.partPath, 0);
    offset = 0;
  }
  const lengthHeader = Number(res.headers['content-length']);
  const total = status === 206
    ? Number(/\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''))?.[1] ?? NaN)
    : status === 416
      ? offset
      : lengthHeader;
  const meta: RemoteMeta = {
    finalUrl: url.toString(),
    name: nameFrom(res, url),
    size: Number.isFinite(total) ? total : null,
    mimeType: String(res.headers['content-type'] ?? '').split(';')[0]!.trim(),
    validator: String(res.headers.etag ?? res.headers['last-modified'] ?? ''),
  };
  if (meta.size !== null && meta.size > opts.maxBytes) {
    res.destroy();
    throw new TooLargeError(opts.tooLarge ?? 'The file is larger than the space left.', meta.size);
  }
  if (opts.onMeta && !(await opts.onMeta(meta))) {
    res.destroy();
    return null;
  }

  // Bytes kept from an earlier attempt are hashed once from disk; the rest while they stream in.
  const hasher = await resumeHasher(opts.partPath, null, offset);
  try {
    let received = offset;
    const feed = async (chunk: Buffer) => {
      received += chunk.length;
      if (received > opts.maxBytes) throw new TooLargeError(opts.tooLarge ?? 'The file is larger than the space left.', received);
      await hasher.update(chunk);
      opts.onProgress?.(received, meta.size);
    };
    try {
      if (status === 416) res.resume();
      else {
        // Positional writes from the bytes kept (a file opened to append would ignore the position).
        const fh = await openFile(opts.partPath, offset > 0 ? 'r+' : 'w');
        const sync = new BackgroundSync();
        try {
          await appendBatched(res, fh, { position: offset, feed, sync });
          await sync.settle();
        } finally {
          await sync.release(fh);
        }
      }
    } catch (err) {
      res.destroy();
      if (err instanceof FetchError || isDiskFull(err)) throw err;
      if (opts.signal?.aborted) throw new FetchError('Stopped.', true);
      throw new FetchError('The connection dropped; the download will continue from where it stopped.', true);
    }
    if (meta.size !== null && received !== meta.size) {
      throw new FetchError(`The server sent ${received} of ${meta.size} bytes; the download will continue.`, true);
    }
    return { ...meta, size: received, hash: await hasher.digest() };
  } finally {
    hasher.close();
  }
}
