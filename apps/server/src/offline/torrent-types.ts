/**
 * What the offline worker needs from a BitTorrent engine, whichever runs the torrents: the built-in one (WebTorrent, in
 * a thread of this process) or a daemon (qBittorrent) that shares the filesystem with Haul. Names shown in the drive always come
 * from the torrent's own paths made safe here, never from what an engine wrote to disk.
 */
import { resolve, sep } from 'node:path';
import { safeTorrentPath } from './torrent-paths.js';

export interface TorrentFileInfo {
  /** Index in the torrent's file list: what a task's `file_ids` names. */
  index: number;
  /** Path inside the torrent, as safe names (the torrent's own name first for multi-file torrents). */
  path: string[];
  size: number;
}

export interface TorrentInfo {
  infoHash: string;
  /** The .torrent file (from a magnet link, once its metadata arrived): later magnets of this hash need no peer for it. */
  torrentFile: Buffer;
  name: string;
  files: TorrentFileInfo[];
  multiFile: boolean;
}

export interface DownloadedFile extends TorrentFileInfo {
  /** Where the bytes are on disk: a regular file inside the task's folder. */
  diskPath: string;
  /** Its content hash (BLAKE3), when the engine computed it from the verified pieces; otherwise read from `diskPath`. */
  hash?: string;
}

/** A magnet link or the bytes of a .torrent file. */
export type TorrentSource = string | Buffer;

/** `retryable`: worth another attempt (no peers yet, a dropped swarm), unlike a bad torrent or a full drive. */
export class TorrentError extends Error {
  constructor(
    message: string,
    readonly retryable = true,
  ) {
    super(message);
  }
}

export interface TorrentDownload {
  source: TorrentSource;
  /** The task's own folder: everything of this torrent is written below it, and left there when stopped. */
  dir: string;
  /** Indexes of the files to fetch; empty fetches all. */
  fileIds: number[];
  /** Aborted when the task is paused, deleted or the process stops: the engine stops, keeping the pieces on disk. */
  signal: AbortSignal;
  metadataTimeoutMs?: number;
  /** Sees the file list first and may stop the download by returning false (content already stored, too large). */
  onMeta: (info: TorrentInfo, chosen: TorrentFileInfo[]) => Promise<boolean>;
  onProgress: (received: number, total: number, speed: number) => void;
  /**
   * Hears of each chosen file as soon as it is complete and verified on disk, before the rest of the torrent. The
   * engine keeps the file where it is (other files' pieces may still be read through it): take a link or a copy.
   */
  onFile?: (file: DownloadedFile) => void;
}

/** The files a task asked for (all when it named none); a choice that names none of the torrent's files is refused. */
export function chosenFiles(info: TorrentInfo, fileIds: number[]): TorrentFileInfo[] {
  const wanted = new Set(fileIds);
  const chosen = info.files.filter((f) => wanted.size === 0 || wanted.has(f.index));
  if (chosen.length === 0) throw new TorrentError('None of the chosen files is in this torrent.', false);
  return chosen;
}

/** A torrent still downloading into a task's folder, as a player of one of its files sees it (torrent-play.ts). */
export interface PartialTorrent {
  /** Where a file of the torrent (its path as the torrent names it) is being written. */
  pathOf(torrentPath: string): string;
  /** The verified pieces, bit i for piece i (most significant bit first); null when not known yet. */
  pieces(): Promise<Uint8Array | null>;
  /** Asks for pieces `from` to `to` before the others: a player waits there. */
  want(from: number, to: number): Promise<void>;
}

/** A BitTorrent engine as the offline worker drives it. */
export interface TorrentEngine {
  /** The torrent of a task still downloading into `dir`, read by any process that sees the data folder. */
  partial(dir: string, infoHash: string): PartialTorrent;
  /** The file list of a torrent, for the person to choose from; nothing is downloaded. */
  inspect(source: TorrentSource, scratchDir: string, signal: AbortSignal, timeoutMs?: number): Promise<TorrentInfo>;
  /**
   * Downloads the chosen files into `dir`, resuming from the pieces already there; null when `onMeta` declined.
   * Rejects with a TorrentError when stopped or failed.
   */
  download(input: TorrentDownload): Promise<{ info: TorrentInfo; files: DownloadedFile[] } | null>;
}

/** The fields of a parsed torrent (parse-torrent's, which WebTorrent's torrents share) that make its TorrentInfo. */
export interface TorrentMeta {
  infoHash: string;
  name?: string;
  torrentFile: Uint8Array;
  files: { path: string; length: number }[];
}

/** A torrent's file list with safe names, the same whichever engine read it. */
export function torrentInfoOf(t: TorrentMeta): TorrentInfo {
  const multiFile = t.files.length > 1 || (t.files[0]?.path ?? '').includes('/');
  return {
    infoHash: t.infoHash,
    torrentFile: Buffer.from(t.torrentFile),
    name: safeTorrentPath(t.name ?? '', 0)[0] ?? t.infoHash,
    multiFile,
    files: t.files.map((f, index) => ({ index, path: safeTorrentPath(f.path, index), size: f.length })),
  };
}

/** A path on disk for a torrent's file, refused when it would leave the task's folder (a stranger wrote the names). */
export function insideTaskFolder(dir: string, at: string): string {
  if (!resolve(at).startsWith(resolve(dir) + sep)) throw new TorrentError('A file of the torrent is outside its folder.', false);
  return at;
}
