/**
 * What the popup shows before adding (seed 000 §3, "extension clipboard preview"): every pasted line as it will be
 * sent, and for a single link what it holds, asked of the server's URL checker (the one probe the checker page and the
 * web app's dialog use): a web file's name, size and type, or a magnet's or .torrent link's name, size and files, so a
 * few files can be picked. A .torrent link is read by the extension itself when the browser grants access to its site.
 */
import type { Answer, HaulClient } from '@haul/client';
import { isMagnet, isTorrentLink, pastedLines } from './links';
import { fetchTorrentFile } from './torrent-file';

export type TorrentListing = Answer<'inspectTorrent'>;
export type LinkCheck = Answer<'checkUrl'>;

/** One line of the paste box as it will be sent. */
export interface PreviewLine {
  link: string;
  kind: 'http' | 'magnet' | 'torrent-link';
}

/** The torrent of a box that holds exactly one magnet or .torrent link, and how to add it. */
export interface TorrentPreview {
  link: string;
  /** The .torrent file's bytes, when the extension read them (added as a file then, with the files picked). */
  base64?: string;
  listing: TorrentListing;
}

export const kindOf = (link: string): PreviewLine['kind'] => (isMagnet(link) ? 'magnet' : isTorrentLink(link) ? 'torrent-link' : 'http');

/** The box's links, each with its kind, and the lines that are not links. */
export function previewLines(text: string): { lines: PreviewLine[]; bad: string[] } {
  const { links, bad } = pastedLines(text);
  return { lines: links.map((link) => ({ link, kind: kindOf(link) })), bad };
}

/** The one link worth checking: the box holds only it. */
export const inspectable = (lines: PreviewLine[]): PreviewLine | null => (lines.length === 1 ? lines[0]! : null);

async function mayRead(link: string): Promise<boolean> {
  try {
    return await chrome.permissions.contains({ origins: [`${new URL(link).origin}/*`] });
  } catch {
    return false;
  }
}

/** What one link holds: a torrent to pick files from, or a web file's facts. */
export type LinkPreview = { torrent: TorrentPreview } | { file: LinkCheck };

/**
 * Checks one link: a .torrent link the browser lets the extension read is read here (its bytes are added as a file);
 * anything else is asked of the server's URL checker, which lists a magnet or a .torrent behind any link too.
 */
export async function previewLink(client: HaulClient, line: PreviewLine, signal?: AbortSignal): Promise<LinkPreview> {
  if (line.kind === 'torrent-link' && (await mayRead(line.link))) {
    const base64 = await fetchTorrentFile(line.link, signal);
    return { torrent: { link: line.link, base64, listing: await client.call('inspectTorrent', { body: { torrent: base64 }, signal }) } };
  }
  const check = await client.call('checkUrl', { body: { url: line.link }, signal });
  if (check.torrent) return { torrent: { link: line.link, base64: check.torrent_file, listing: check.torrent } };
  return { file: check };
}

/** The file_ids to send: none when every file is kept (the server then keeps all). */
export function chosenFileIds(listing: TorrentListing, chosen: ReadonlySet<number>): number[] | undefined {
  const all = listing.files.map((f) => f.index);
  return all.every((i) => chosen.has(i)) ? undefined : all.filter((i) => chosen.has(i));
}
