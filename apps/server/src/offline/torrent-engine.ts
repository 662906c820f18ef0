/**
 * The built-in BitTorrent engine (WebTorrent 3, TCP only): reads a torrent's file list from a magnet link or a
 * .torrent file, and downloads the chosen files into a task's own folder. Each task gets its own client, so two
 * tasks never share (or destroy) each other's torrent, and a stopped task leaves its pieces on disk: adding the
 * torrent again over the same folder re-checks them and fetches only what is missing.
 *
 * uTP is off: with it on, WebTorrent waits ~40 s before it tries TCP-only peers (aria2c, most daemons).
 */
import { basename, dirname, join } from 'node:path';
import filenameReservedRegex from 'filename-reserved-regex';
import WebTorrent, { type Instance, type Torrent } from 'webtorrent';
import { chosenFiles, TorrentError, torrentInfoOf, type DownloadedFile, type TorrentDownload, type TorrentEngine, type TorrentInfo, type TorrentSource } from './torrent-types.js';

export { TorrentError, type DownloadedFile, type TorrentFileInfo, type TorrentInfo, type TorrentSource } from './torrent-types.js';

export interface TorrentEngineOptions {
  /** The DHT finds peers without trackers; off in tests, where every peer is on loopback. */
  dht: boolean;
}

/** Where WebTorrent's file store keeps a torrent file: under `dir`, its own name without reserved characters. */
export function diskPathOf(dir: string, torrentPath: string): string {
  return join(dir, dirname(torrentPath), basename(torrentPath).replace(filenameReservedRegex(), ''));
}

function newClient(opts: TorrentEngineOptions): Instance {
  return new WebTorrent({ dht: opts.dht, lsd: false, utp: false, natUpnp: false, natPmp: false, webSeeds: true, tracker: { wrtc: false } });
}

/** Adds a torrent to a client and waits for its metadata, an error, the timeout or the abort. */
function addAndWait(client: Instance, source: TorrentSource, path: string, signal: AbortSignal, timeoutMs: number): Promise<Torrent> {
  return new Promise<Torrent>((resolve, reject) => {
    const fail = (err: Error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      reject(err);
    };
    const onAbort = () => fail(new TorrentError('Stopped.'));
    const timer = setTimeout(
      () => fail(new TorrentError("No peer sent the torrent's file list in time; check the link or try again later.")),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    client.on('error', (err) => fail(new TorrentError(`BitTorrent: ${(err as Error).message ?? err}`)));
    try {
      const t = client.add(source, { path, deselect: true }, (ready) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(ready);
      });
      t.on('error', (err) => fail(new TorrentError(`BitTorrent: ${(err as Error).message ?? err}`)));
    } catch (err) {
      fail(new TorrentError(`Not a valid torrent: ${(err as Error).message}`, false));
    }
  });
}

/** The built-in engine: one WebTorrent client per call, in this process. */
export class BuiltinTorrentEngine implements TorrentEngine {
  constructor(private readonly opts: TorrentEngineOptions) {}

  /** The file list of a torrent, for the person to choose from; nothing is downloaded. */
  async inspect(source: TorrentSource, scratchDir: string, signal: AbortSignal, timeoutMs = 60_000): Promise<TorrentInfo> {
    const client = newClient(this.opts);
    try {
      return torrentInfoOf(await addAndWait(client, source, scratchDir, signal, timeoutMs));
    } finally {
      await new Promise<void>((r) => client.destroy(() => r()));
    }
  }

  /**
   * Downloads the chosen files (all when `fileIds` is empty) into `dir`. `onMeta` sees the file list first and may
   * stop the download by returning false (content already stored, too large for the quota).
   */
  async download(input: TorrentDownload): Promise<{ info: TorrentInfo; files: DownloadedFile[] } | null> {
    const client = newClient(this.opts);
    try {
      const t = await addAndWait(client, input.source, input.dir, input.signal, input.metadataTimeoutMs ?? 120_000);
      const info = torrentInfoOf(t);
      const chosen = chosenFiles(info, input.fileIds);
      if (!(await input.onMeta(info, chosen))) return null;
      const files = chosen.map((c) => t.files[c.index]!);
      files.forEach((f) => f.select());
      const total = chosen.reduce((n, f) => n + f.size, 0);
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (files.every((f) => f.done)) finish();
        };
        const timer = setInterval(() => {
          const received = files.reduce((n, f) => n + Math.min(f.length, f.downloaded), 0);
          input.onProgress(received, total, Math.round(t.downloadSpeed));
          check();
        }, 1000);
        const onAbort = () => finish(new TorrentError('Stopped.'));
        const finish = (err?: Error) => {
          clearInterval(timer);
          input.signal.removeEventListener('abort', onAbort);
          t.removeListener('download', check);
          if (err) reject(err);
          else resolve();
        };
        input.signal.addEventListener('abort', onAbort, { once: true });
        t.on('download', check);
        t.on('error', (err) => finish(new TorrentError(`BitTorrent: ${(err as Error).message ?? err}`)));
        check();
      });
      return { info, files: chosen.map((c) => ({ ...c, diskPath: diskPathOf(input.dir, t.files[c.index]!.path) })) };
    } finally {
      await new Promise<void>((r) => client.destroy(() => r()));
    }
  }
}
