/**
 * Catching .torrent downloads while the switch is on: a download the browser starts whose type is
 * application/x-bittorrent, or whose link or file name ends in .torrent, is paused; the extension reads the file from
 * its link itself and adds it to Haul as a torrent. Only once Haul accepted it is the browser's download cancelled
 * (or, when it had already finished, its file removed); when anything fails, the download goes on and the person is
 * told why. The downloads API exists only while its optional permission is granted, so listeners are attached then.
 */
import { isCatching } from '../lib/catching';
import { t } from '../lib/i18n';
import { send, type SendResult } from '../lib/send-links';
import { fetchTorrentFile, nameOfLink } from '../lib/torrent-file';

const TORRENT_TYPE = 'application/x-bittorrent';
const handled = new Set<number>();

/** Whether a download is a .torrent file, by its type, its link or its file name. */
export function isTorrentDownload(d: Pick<chrome.downloads.DownloadItem, 'mime' | 'url' | 'finalUrl' | 'filename'>): boolean {
  if (d.mime?.toLowerCase() === TORRENT_TYPE) return true;
  const pathEnds = (link: string | undefined) => {
    try {
      return !!link && /\.torrent$/i.test(new URL(link).pathname);
    } catch {
      return false;
    }
  };
  return pathEnds(d.url) || pathEnds(d.finalUrl) || /\.torrent$/i.test(d.filename ?? '');
}

/** Takes the finished or running download back from the browser: Haul has the file now. */
async function withdraw(id: number): Promise<void> {
  const [item] = await chrome.downloads.search({ id });
  if (!item) return;
  if (item.state === 'in_progress') await chrome.downloads.cancel(id);
  else if (item.state === 'complete' && item.exists) await chrome.downloads.removeFile(id).catch(() => undefined);
  await chrome.downloads.erase({ id }).catch(() => undefined);
}

/** Lets the browser's download go on after Haul could not take the file. */
async function letGo(id: number): Promise<void> {
  const [item] = await chrome.downloads.search({ id });
  if (item?.state === 'in_progress' && item.paused) await chrome.downloads.resume(id).catch(() => undefined);
}

/** Catches one download when it is a .torrent (once); answers what came of it, or null when it was not caught. */
export async function catchDownload(item: chrome.downloads.DownloadItem): Promise<SendResult | null> {
  if (handled.has(item.id) || item.byExtensionId === chrome.runtime.id || !isTorrentDownload(item)) return null;
  if (item.state !== 'in_progress' && item.state !== 'complete') return null;
  // Marked before anything is awaited: its name arriving a moment later must not catch it twice.
  handled.add(item.id);
  if (!(await isCatching('torrents'))) return null;
  // Held while Haul is asked; a small file may have finished already, which is fine too.
  if (item.state === 'in_progress') await chrome.downloads.pause(item.id).catch(() => undefined);
  const link = item.finalUrl || item.url;
  let result: SendResult;
  try {
    const base64 = await fetchTorrentFile(link);
    result = await send({ torrent: { base64, name: nameOfLink(link) } });
  } catch (err) {
    result = { ok: false, tasks: [], message: t('torrentUnreadable', { why: err instanceof Error ? err.message : String(err) }) };
  }
  if (result.ok) await withdraw(item.id);
  else {
    await letGo(item.id);
    result = { ...result, message: `${result.message} ${t('downloadGoesOn')}` };
  }
  return result;
}

let attached = false;

/** Attaches the listeners when the downloads API is there (its permission granted); safe to call again. */
export function watchDownloads(onCaught: (r: SendResult) => void): void {
  if (attached || !chrome.downloads) return;
  attached = true;
  const consider = (item: chrome.downloads.DownloadItem) =>
    void catchDownload(item).then((r) => r && onCaught(r));
  chrome.downloads.onCreated.addListener(consider);
  // A download named by the site's answer (Content-Disposition) gets its .torrent name only after it was created.
  chrome.downloads.onChanged.addListener((delta) => {
    if (!delta.filename?.current || handled.has(delta.id)) return;
    void chrome.downloads.search({ id: delta.id }).then(([item]) => item && consider(item));
  });
}
