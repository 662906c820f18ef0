/**
 * What the popup shows before adding (seed 000 §3, "extension clipboard preview"): every pasted line as it will be
 * sent, and for a single magnet link or .torrent link its name, size and files, read through the server's torrent
 * inspection (the call the web app's dialog makes), so a few files can be picked. A .torrent link is read by the
 * extension when the browser grants access to its site; otherwise, like a plain http link, it is shown as it is
 * (no call tells what an http link holds before it is fetched).
 */
import type { Answer, HaulClient } from '@haul/client';
import { isMagnet, isTorrentLink, pastedLines } from './links';
import { fetchTorrentFile } from './torrent-file';

export type TorrentListing = Answer<'inspectTorrent'>;

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

/** The one torrent link worth inspecting: the box holds only it. */
export const inspectable = (lines: PreviewLine[]): PreviewLine | null => (lines.length === 1 && lines[0]!.kind !== 'http' ? lines[0]! : null);

async function mayRead(link: string): Promise<boolean> {
  try {
    return await chrome.permissions.contains({ origins: [`${new URL(link).origin}/*`] });
  } catch {
    return false;
  }
}

/**
 * Reads a torrent's files: a magnet link by the server's inspection of it; a .torrent link by reading the file when
 * its site may be read. Null when there is nothing to read it with.
 */
export async function inspectTorrentLink(client: HaulClient, line: PreviewLine, signal?: AbortSignal): Promise<TorrentPreview | null> {
  if (line.kind === 'magnet') return { link: line.link, listing: await client.call('inspectTorrent', { body: { url: line.link }, signal }) };
  if (line.kind !== 'torrent-link' || !(await mayRead(line.link))) return null;
  const base64 = await fetchTorrentFile(line.link, signal);
  return { link: line.link, base64, listing: await client.call('inspectTorrent', { body: { torrent: base64 }, signal }) };
}

/** The file_ids to send: none when every file is kept (the server then keeps all). */
export function chosenFileIds(listing: TorrentListing, chosen: ReadonlySet<number>): number[] | undefined {
  const all = listing.files.map((f) => f.index);
  return all.every((i) => chosen.has(i)) ? undefined : all.filter((i) => chosen.has(i));
}
