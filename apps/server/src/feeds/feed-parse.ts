/**
 * Reading a feed: RSS 2.0, RSS 1.0 (RDF) and Atom through feedsmith, which keeps every enclosure of an RSS item and
 * every link of an Atom entry (rel=enclosure .torrent and magnet links included). It drops the torrent namespace
 * (`torrent:magnetURI`, `torrent:infoHash`, and the same names under other prefixes, as nyaa's `nyaa:infoHash`), so
 * those are read beside it from each item's own XML. What an item fetches: a .torrent, else a magnet link, else
 * another enclosure (a podcast's episode), else its link. feedsmith is loaded at the first feed read, not at start.
 */
import type { parseFeed as ParseFeed } from 'feedsmith';

export type ItemKind = 'http' | 'magnet' | 'torrent' | 'none';

export interface ParsedItem {
  guid: string;
  title: string;
  /** What is fetched ('' when nothing). */
  link: string;
  kind: ItemKind;
  /** The BitTorrent info hash, lower-case hex, when the item names one. */
  infoHash: string;
  publishedAt: number | null;
}

export interface ParsedFeed {
  title: string;
  /** In the feed's order (usually newest first). */
  items: ParsedItem[];
}

export class NotAFeedError extends Error {
  constructor() {
    super('This is not an RSS or Atom feed.');
  }
}

interface LinkLike {
  href?: string;
  rel?: string;
  type?: string;
}
interface EnclosureLike {
  url?: string;
  type?: string;
}
interface ItemLike {
  title?: string | { value?: string };
  link?: string;
  links?: LinkLike[];
  enclosures?: EnclosureLike[];
  guid?: string | { value?: string };
  id?: string;
  pubDate?: string;
  published?: string;
  updated?: string;
  dc?: { date?: string; dates?: string[] };
}

const text = (v: string | { value?: string } | undefined): string => (typeof v === 'string' ? v : (v?.value ?? '')).trim();

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A v1 info hash as lower-case hex (from hex, or the base32 some magnet links use); '' when it is neither. */
export function normaliseInfoHash(raw: string): string {
  const h = raw.trim();
  if (/^[0-9a-f]{40}$/i.test(h)) return h.toLowerCase();
  if (!/^[A-Z2-7]{32}$/i.test(h)) return '';
  let bits = '';
  for (const c of h.toUpperCase()) bits += BASE32.indexOf(c).toString(2).padStart(5, '0');
  return bits.match(/.{4}/g)!.map((b) => parseInt(b, 2).toString(16)).join('');
}

export function magnetInfoHash(link: string): string {
  const m = /[?&]xt=urn:btih:([0-9a-z]+)/i.exec(link);
  return m ? normaliseInfoHash(m[1]!) : '';
}

const isMagnet = (s: string) => /^magnet:\?/i.test(s);
const isTorrent = (url: string, type = '') => /bittorrent/i.test(type) || /\.torrent(\?|#|$)/i.test(url);

function decodeXml(s: string): string {
  const raw = s.trim().replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1');
  return raw.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[e.toLowerCase()]) return named[e.toLowerCase()]!;
    return String.fromCodePoint(e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
  });
}

/** The torrent namespace's fields of each item or entry, in document order. */
function torrentFields(xml: string): { magnet: string; infoHash: string }[] {
  const blocks = xml.match(/<(item|entry)[\s>][\s\S]*?<\/\1>/g) ?? [];
  const field = (block: string, name: string) => {
    const m = new RegExp(`<(?:[\\w-]+:)?${name}>([\\s\\S]*?)</(?:[\\w-]+:)?${name}>`, 'i').exec(block);
    return m ? decodeXml(m[1]!) : '';
  };
  return blocks.map((b) => ({ magnet: field(b, 'magnetURI'), infoHash: normaliseInfoHash(field(b, 'infoHash')) }));
}

function pickLink(item: ItemLike, extra: { magnet: string }): { link: string; kind: ItemKind } {
  const enclosures = [
    ...(item.enclosures ?? []).map((e) => ({ url: (e.url ?? '').trim(), type: e.type ?? '' })),
    ...(item.links ?? []).filter((l) => l.rel === 'enclosure').map((l) => ({ url: (l.href ?? '').trim(), type: l.type ?? '' })),
  ].filter((e) => e.url);
  const plain = (item.link ?? item.links?.find((l) => !l.rel || l.rel === 'alternate')?.href ?? '').trim();
  const torrent = enclosures.find((e) => !isMagnet(e.url) && isTorrent(e.url, e.type)) ?? (plain && isTorrent(plain) ? { url: plain } : undefined);
  if (torrent) return { link: torrent.url, kind: 'torrent' };
  const magnet = [extra.magnet, ...enclosures.map((e) => e.url), plain].find((u) => u && isMagnet(u));
  if (magnet) return { link: magnet, kind: 'magnet' };
  if (enclosures[0]) return { link: enclosures[0].url, kind: 'http' };
  if (/^https?:\/\//i.test(plain)) return { link: plain, kind: 'http' };
  return { link: '', kind: 'none' };
}

function timeOf(item: ItemLike): number | null {
  const raw = item.pubDate ?? item.published ?? item.updated ?? item.dc?.date ?? item.dc?.dates?.[0];
  const t = raw ? Date.parse(raw) : NaN;
  return Number.isFinite(t) ? t : null;
}

let parser: Promise<typeof ParseFeed> | null = null;

export async function parseFeedText(xml: string): Promise<ParsedFeed> {
  parser ??= import('feedsmith').then((m) => m.parseFeed);
  const parseFeed = await parser;
  let parsed: ReturnType<typeof ParseFeed>;
  try {
    parsed = parseFeed(xml);
  } catch {
    throw new NotAFeedError();
  }
  if (parsed.format === 'json') throw new NotAFeedError();
  const feed = parsed.feed as { title?: string | { value?: string }; items?: ItemLike[]; entries?: ItemLike[] };
  const raw = feed.items ?? feed.entries ?? [];
  const extras = torrentFields(xml);
  // The XML's items line up with the parser's only when both saw as many; else the namespace is left unread.
  const aligned = extras.length === raw.length;
  const items = raw.map((item, i): ParsedItem => {
    const extra = aligned ? extras[i]! : { magnet: '', infoHash: '' };
    let { link, kind } = pickLink(item, extra);
    const infoHash = extra.infoHash || magnetInfoHash(extra.magnet) || (kind === 'magnet' ? magnetInfoHash(link) : '');
    const title = text(item.title) || link || 'Untitled';
    if (kind === 'none' && infoHash) {
      link = `magnet:?xt=urn:btih:${infoHash}&dn=${encodeURIComponent(title)}`;
      kind = 'magnet';
    }
    return { guid: text(item.guid) || (item.id ?? '').trim(), title: title.slice(0, 1000), link, kind, infoHash, publishedAt: timeOf(item) };
  });
  return { title: text(feed.title).slice(0, 500), items };
}
