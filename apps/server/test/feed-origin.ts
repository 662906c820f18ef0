/**
 * The feed origin the feeds tests (feeds.test.ts, feeds-accounts.test.ts) read from, on loopback: RSS and Atom feeds
 * the tests change as they go (their version is the ETag or Last-Modified, and a 304 answers a match), the .torrent
 * files Atom entries link to, the bytes enclosures link to, and a web page that is no feed.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

export const MINUTE = 60_000;
const BODY = Buffer.alloc(20_000, 3);
/** A one-file .torrent, bencoded by hand; the name makes its info hash its own. */
export const torrentFor = (name: string) =>
  Buffer.concat([
    Buffer.from(`d8:announce22:http://127.0.0.1:1/ann4:infod6:lengthi5e4:name${name.length}:${name}12:piece lengthi16384e6:pieces20:`),
    Buffer.alloc(20, 9),
    Buffer.from('ee'),
  ]);
export const hash = (n: number) => n.toString(16).padStart(40, '0');

/** A feed the origin serves, changed by the tests; its version is its ETag (RSS) or Last-Modified (Atom). */
export interface FeedState {
  title: string;
  items: string[];
  version: number;
  status: number;
  requests: number;
  conditional: number;
  notModified: number;
}
const feeds = new Map<string, FeedState>();
export const feed = (path: string, title: string, items: string[] = []): FeedState => {
  const f: FeedState = { title, items, version: 1, status: 200, requests: 0, conditional: 0, notModified: 0 };
  feeds.set(path, f);
  return f;
};
export const grow = (f: FeedState, ...items: string[]) => {
  f.items.unshift(...items);
  f.version++;
};

let origin: Server;
/** The origin's address, once started (a live binding: importers see it set). */
export let base = '';
export const rssItem = (n: number, title: string, how: 'enclosure' | 'magnet' | 'namespace' | 'hash') => {
  const guid = `<guid isPermaLink="false">item-${n}</guid>`;
  if (how === 'enclosure') return `<item><title>${title}</title>${guid}<link>${base}/page/${n}</link><enclosure url="${base}/files/${n}.bin" length="20000" type="application/octet-stream"/></item>`;
  if (how === 'magnet') return `<item><title>${title}</title>${guid}<link>magnet:?xt=urn:btih:${hash(n)}&amp;dn=${encodeURIComponent(title)}</link></item>`;
  if (how === 'namespace') return `<item><title>${title}</title>${guid}<link>${base}/page/${n}</link><torrent:magnetURI><![CDATA[magnet:?xt=urn:btih:${hash(n)}&dn=x]]></torrent:magnetURI></item>`;
  return `<item><title>${title}</title>${guid}<torrent:infoHash>${hash(n)}</torrent:infoHash></item>`;
};
export const atomEntry = (n: number, title: string) =>
  `<entry><title>${title}</title><id>urn:entry:${n}</id><updated>2026-11-01T00:00:00Z</updated><link rel="alternate" href="${base}/page/${n}"/><link rel="enclosure" type="application/x-bittorrent" href="${base}/t/pack${n}.torrent"/></entry>`;

function serveFeed(req: IncomingMessage, path: string, f: FeedState, res: import('node:http').ServerResponse) {
  f.requests++;
  if (f.status !== 200) return void res.writeHead(f.status).end('broken');
  const atom = path.startsWith('/atom');
  const tag = `"v${f.version}"`;
  const modified = new Date(Date.UTC(2026, 0, 1) + f.version * 1000).toUTCString();
  if (req.headers['if-none-match'] || req.headers['if-modified-since']) f.conditional++;
  if ((!atom && req.headers['if-none-match'] === tag) || (atom && req.headers['if-modified-since'] === modified)) {
    f.notModified++;
    return void res.writeHead(304).end();
  }
  const body = atom
    ? `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${f.title}</title><id>urn:feed</id><updated>2026-11-01T00:00:00Z</updated>${f.items.join('')}</feed>`
    : `<?xml version="1.0"?><rss version="2.0" xmlns:torrent="http://xmlns.ezrss.it/0.1/"><channel><title>${f.title}</title><link>${base}/</link><description>d</description>${f.items.join('')}</channel></rss>`;
  res.writeHead(200, { 'content-type': atom ? 'application/atom+xml' : 'application/rss+xml', ...(atom ? { 'last-modified': modified } : { etag: tag }) });
  res.end(body);
}

/** Starts the origin on loopback: the feeds made with `feed`, .torrent files under /t/, bytes under /files/, a web page. */
export async function startFeedOrigin(): Promise<void> {
  origin = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const f = feeds.get(path);
    if (f) return serveFeed(req, path, f, res);
    const t = /^\/t\/(pack\d+)\.torrent$/.exec(path);
    if (t) {
      const bytes = torrentFor(`${t[1]}.bin`);
      res.writeHead(200, { 'content-type': 'application/x-bittorrent', 'content-length': String(bytes.length) });
      return void res.end(req.method === 'HEAD' ? undefined : bytes);
    }
    if (path.startsWith('/files/')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(BODY.length) });
      return void res.end(req.method === 'HEAD' ? undefined : BODY);
    }
    if (path === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Hello</body></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
}

export const stopFeedOrigin = () => new Promise<void>((r) => origin.close(() => r()));
