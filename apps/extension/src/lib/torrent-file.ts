/**
 * Reading a .torrent file from its link, as the extension itself (the browser's download is not readable): the
 * bytes as base64, the way the API takes a torrent file. Needs site access for the link's origin (granted with the
 * switch of catching .torrent downloads); without it the site's answer is unreadable and this fails.
 */

/** The API takes 7,000,000 base64 characters: about 5 MiB of file. */
export const TORRENT_MAX_BYTES = 5 * 1024 * 1024;

/** A file's name from its link: the last part of the path, decoded. */
export function nameOfLink(link: string): string {
  try {
    const last = new URL(link).pathname.split('/').filter(Boolean).pop() ?? '';
    return decodeURIComponent(last) || link;
  } catch {
    return link;
  }
}

export function toBase64(bytes: Uint8Array): string {
  let text = '';
  // In slices: String.fromCharCode takes a bounded number of arguments.
  for (let at = 0; at < bytes.length; at += 0x8000) text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(text);
}

/** The file at `url` as base64, or an error whose message says why not. */
export async function fetchTorrentFile(url: string, signal?: AbortSignal): Promise<string> {
  const res = await fetch(url, { credentials: 'include', cache: 'no-store', signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!bytes.length || bytes.length > TORRENT_MAX_BYTES) throw new Error(`${bytes.length} bytes`);
  return toBase64(bytes);
}
