/**
 * What an http link holds, asked of its server without fetching the content: HEAD, or a one-byte ranged GET when
 * HEAD is refused or says no size (servers that lie to HEAD are common). A .torrent behind the link is read whole
 * (it is small), so its files can be listed. Every hop goes through the network guard, as a cloud download's does.
 */
import type { IncomingMessage } from 'node:http';
import { FetchError, nameFrom, requestFollowing, type RemoteMeta, type RequestOptions } from './http-fetch.js';

export interface HttpProbe extends RemoteMeta {
  /** The .torrent file the link serves, when it serves one. */
  torrent?: Buffer;
}

const TORRENT_TYPE = 'application/x-bittorrent';

function metaOf(res: IncomingMessage, url: URL, size: number | null): RemoteMeta {
  return {
    finalUrl: url.toString(),
    name: nameFrom(res, url),
    size,
    mimeType: String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim(),
    validator: String(res.headers.etag ?? res.headers['last-modified'] ?? ''),
  };
}

const lengthOf = (res: IncomingMessage): number | null => {
  const n = Number(res.headers['content-length'] ?? NaN);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

function refused(res: IncomingMessage): FetchError {
  return new FetchError(`The server answered ${res.statusCode} ${res.statusMessage ?? ''}`.trim() + '.', false);
}

async function readUpTo(res: IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of res) {
    n += (chunk as Buffer).length;
    if (n > max) {
      res.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function probeHttpLink(link: string, opts: RequestOptions & { torrentMaxBytes: number }): Promise<HttpProbe> {
  const head = await requestFollowing(link, {}, { ...opts, method: 'HEAD' });
  head.res.resume();
  const headOk = (head.res.statusCode ?? 0) >= 200 && (head.res.statusCode ?? 0) < 300;
  let meta = headOk ? metaOf(head.res, head.url, lengthOf(head.res)) : null;
  if (!meta || meta.size === null) {
    const { res, url } = await requestFollowing(link, { range: 'bytes=0-0' }, opts);
    res.destroy();
    const status = res.statusCode ?? 0;
    if (status === 206) meta = metaOf(res, url, Number(/\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''))?.[1] ?? NaN) || null);
    else if (status >= 200 && status < 300) meta = metaOf(res, url, lengthOf(res));
    else throw refused(res);
  }
  const looksTorrent = meta.mimeType === TORRENT_TYPE || /\.torrent$/i.test(meta.name);
  if (!looksTorrent || (meta.size !== null && meta.size > opts.torrentMaxBytes)) return meta;
  const { res } = await requestFollowing(meta.finalUrl, {}, opts);
  if ((res.statusCode ?? 0) !== 200) {
    res.resume();
    throw refused(res);
  }
  const torrent = await readUpTo(res, opts.torrentMaxBytes);
  return torrent ? { ...meta, size: torrent.length, torrent } : meta;
}
