/**
 * BitTorrent through a qBittorrent daemon (Web API v2; qBittorrent 4.5 or newer) instead of in this process, for sites
 * that run many torrents or already run a daemon. The daemon must share the filesystem with Haul: it writes each
 * task's files into that task's own folder under Haul's data directory (`<dataDir>/offline/<task>.bt`, which it sees
 * under `daemonRoot`), and Haul hashes them and moves them into its store from there.
 *
 * Each task is one torrent in the daemon, saved to its task's folder. A stopped task (paused, deleted, Haul shutting
 * down) takes its torrent out of the daemon and keeps the files: added again, the daemon re-checks them and fetches
 * only what is missing. After a crash of Haul the daemon goes on, and the task, taken up again, finds its torrent there.
 * The daemon holds one torrent per info hash, so a second task of the same torrent waits for the first; once that one
 * is stored, the second completes from the store.
 */
import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { QBittorrent, Torrent } from '@ctrl/qbittorrent';
import parseTorrent from 'parse-torrent';
import { applyDaemonIpFilter } from './daemon-ip-filter.js';
import {
  chosenFiles,
  insideTaskFolder,
  TorrentError,
  torrentInfoOf,
  type DownloadedFile,
  type PartialTorrent,
  type TorrentDownload,
  type TorrentEngine,
  type TorrentFileInfo,
  type TorrentInfo,
  type TorrentSource,
} from './torrent-types.js';

export interface QbittorrentOptions {
  /** The Web UI's address, e.g. http://127.0.0.1:8080/. */
  url: string;
  /** Empty when the daemon lets this host in without a login (its "bypass authentication" settings). */
  username: string;
  password: string;
  /** The folder task folders are made in, as Haul sees it (`<dataDir>/offline`). */
  localRoot: string;
  /** The same folder as the daemon sees it: the same path when the daemon runs on this machine. */
  daemonRoot: string;
  /** Time between two looks at the daemon. */
  pollMs?: number;
  /** A daemon that does not answer a call within this long is taken as down (default 30 s). */
  timeoutMs?: number;
  /** Off: before its first torrent, the daemon is given an IP filter of every non-public address (daemon-ip-filter). */
  allowPrivateNetwork: boolean;
}

/** How long the daemon has to confirm that it applied the IP filter (it takes ~0.1 s). */
const FILTER_TIMEOUT_MS = 10_000;

/** States in which the daemon holds every wanted piece (`stoppedUP` is qBittorrent 5's name for `pausedUP`). */
const COMPLETE = new Set(['uploading', 'stalledUP', 'pausedUP', 'stoppedUP', 'queuedUP', 'forcedUP']);
const FAILED = new Set(['error', 'missingFiles']);
const STOPPED = new Set(['pausedDL', 'stoppedDL']);
/** A torrent of another task left complete this long is taken as abandoned. */
const ABANDONED_MS = 60_000;
const NO_METADATA = "No peer sent the torrent's file list in time; check the link or try again later.";

const stopped = () => new TorrentError('Stopped.');

/** Waits, or rejects as soon as the task is stopped. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(stopped());
    const onAbort = () => {
      clearTimeout(timer);
      reject(stopped());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The file list of a .torrent file, read here: the daemon is not needed for it. */
async function infoOfFile(bytes: Buffer): Promise<TorrentInfo> {
  const parsed = await parseTorrent(bytes).catch((err: Error) => {
    throw new TorrentError(`Not a valid torrent: ${err.message}`, false);
  });
  if (!parsed.infoHash || !parsed.files) throw new TorrentError('Not a valid torrent: it lists no files.', false);
  return torrentInfoOf({ infoHash: parsed.infoHash, name: parsed.name, torrentFile: bytes, files: parsed.files });
}

async function infoHashOf(source: TorrentSource): Promise<string> {
  if (Buffer.isBuffer(source)) return (await infoOfFile(source)).infoHash;
  const hash = (await parseTorrent(source).catch(() => null))?.infoHash;
  if (!hash) throw new TorrentError('The magnet link has no BitTorrent info hash (xt=urn:btih:…).', false);
  return hash.toLowerCase();
}

/**
 * Where the daemon put a file, as a path inside `dir` that Haul may read: a name with `..`, an absolute path, a
 * backslash or a control character is refused, and so is anything that is not a regular file inside `dir` once links
 * are followed.
 */
export async function diskPathIn(dir: string, name: string, size: number): Promise<string> {
  const parts = name.split('/');
  // eslint-disable-next-line no-control-regex
  if (isAbsolute(name) || parts.some((p) => p === '' || p === '.' || p === '..' || /[\\\u0000-\u001f\u007f]/.test(p))) {
    throw new TorrentError(`The torrent daemon wrote a file under an unsafe name: ${JSON.stringify(name)}.`, false);
  }
  const at = resolve(dir, ...parts);
  const st = await lstat(at).catch(() => null);
  if (!st?.isFile() || st.size !== size) throw new TorrentError(`"${name}" is not on disk where the torrent daemon put it.`);
  const [real, realDir] = await Promise.all([realpath(at), realpath(dir)]);
  if (!real.startsWith(realDir + sep)) throw new TorrentError(`The torrent daemon wrote "${name}" outside the task's folder.`, false);
  return at;
}

/**
 * Pieces in order, the first and last of each file first (as the built-in engine fetches): a torrent's files finish
 * one after another, so each lands in the drive early, and a video's start and index come first.
 */
const IN_ORDER = { sequentialDownload: 'true', firstLastPiecePrio: 'true' } as const;

/** qBittorrent's file priority "do not download" (the library's TorrentFilePriority.Skip). */
const SKIP = 0;

/** The built-in engine's contract, kept by a qBittorrent daemon. */
export class QbittorrentEngine implements TorrentEngine {
  private daemon: Promise<QBittorrent> | null = null;
  private readonly pollMs: number;

  constructor(private readonly opts: QbittorrentOptions) {
    this.pollMs = opts.pollMs ?? 500;
  }

  /** The daemon's client, with its library loaded at the first call: a server on the built-in engine never loads it. */
  private client(): Promise<QBittorrent> {
    const o = this.opts;
    this.daemon ??= import('@ctrl/qbittorrent').then(({ QBittorrent }) => new QBittorrent({ baseUrl: o.url, username: o.username, password: o.password, timeout: o.timeoutMs ?? 30_000 }));
    return this.daemon;
  }

  private guarded: Promise<void> | null = null;

  /**
   * The private-network rule, kept by the daemon: its IP filter blocks every non-public address for peers, web seeds
   * and (applied to trackers) announces. Set once per process before the first torrent, once the daemon says it
   * applied it, and again after a failure.
   */
  private guard(): Promise<void> {
    if (this.opts.allowPrivateNetwork) return Promise.resolve();
    const { localRoot, daemonRoot } = this.opts;
    this.guarded ??= this.client()
      .then((client) => applyDaemonIpFilter(client, localRoot, daemonRoot, FILTER_TIMEOUT_MS))
      .catch((err: unknown) => {
        this.guarded = null;
        throw err;
      });
    return this.guarded;
  }

  /** The file list of a torrent: a .torrent file is read here, a magnet link's comes from peers through the daemon. */
  async inspect(source: TorrentSource, scratchDir: string, signal: AbortSignal, timeoutMs = 60_000): Promise<TorrentInfo> {
    if (Buffer.isBuffer(source)) return infoOfFile(source);
    const hash = await infoHashOf(source);
    let added = false;
    try {
      return await this.daemonErrors(async () => {
        const end = Date.now() + timeoutMs;
        for (;;) {
          const t = await this.find(hash);
          if (!t) {
            await this.addMagnet(source, this.daemonPath(scratchDir), hash);
            added = true;
          } else {
            // Ours, or another task's torrent: either answers as soon as the daemon has its metadata.
            const info = await this.metadata(hash);
            if (info) return info;
          }
          if (Date.now() > end) throw new TorrentError(NO_METADATA);
          await pause(this.pollMs, signal);
        }
      });
    } finally {
      // Stopped at its metadata, it wrote nothing but an empty folder, which the caller removes. A download task may
      // have taken the same torrent over meanwhile (its own folder): that one stays.
      if (added && (await this.find(hash).catch(() => undefined))?.save_path.replace(/\/+$/, '') === this.daemonPath(scratchDir).replace(/\/+$/, '')) {
        await this.remove(hash, true);
      }
    }
  }

  /** Downloads the chosen files into `dir` through the daemon, resuming from what is there. */
  async download(input: TorrentDownload): Promise<{ info: TorrentInfo; files: DownloadedFile[] } | null> {
    const { source, signal } = input;
    const hash = await infoHashOf(source);
    const savePath = this.daemonPath(input.dir);
    let info = Buffer.isBuffer(source) ? await infoOfFile(source) : null;
    let chosen: TorrentFileInfo[] = [];
    // A .torrent file's list is known before the daemon is asked for anything: stored content needs no daemon.
    if (info) {
      chosen = chosenFiles(info, input.fileIds);
      if (!(await input.onMeta(info, chosen))) return null;
    }
    let held = false;
    let completeSince: number | null = null;
    try {
      return await this.daemonErrors(async () => {
        for (;;) {
          if (signal.aborted) throw stopped();
          const t = await this.find(hash);
          if (!t) {
            if (Buffer.isBuffer(source)) await this.addFile(source, savePath, hash);
            else await this.addMagnet(source, savePath, hash);
            held = true;
            break;
          }
          // Ours from before a crash of Haul: the daemon kept it going.
          if (resolve(t.save_path) === resolve(savePath)) {
            held = true;
            break;
          }
          // Another task's: the daemon holds one torrent per hash. A task takes its torrent out within a second of
          // completing, so one left complete for long was left by a task that is gone (deleted while Haul was down).
          if (!COMPLETE.has(t.state)) completeSince = null;
          else if (completeSince === null) completeSince = Date.now();
          else if (Date.now() - completeSince > ABANDONED_MS) await this.remove(hash, false);
          await pause(this.pollMs * 4, signal);
        }
        if (!info) {
          const end = Date.now() + (input.metadataTimeoutMs ?? 120_000);
          while (!(info = await this.metadata(hash))) {
            if (Date.now() > end) throw new TorrentError(NO_METADATA);
            await pause(this.pollMs, signal);
          }
          chosen = chosenFiles(info, input.fileIds);
          if (!(await input.onMeta(info, chosen))) return null;
        }
        const picked = new Set(chosen.map((f) => f.index));
        const skipped = info.files.filter((f) => !picked.has(f.index)).map((f) => String(f.index));
        const qb = await this.client();
        if (skipped.length) await qb.setFilePriority(hash, skipped, SKIP);
        await qb.startTorrent(hash);
        const total = chosen.reduce((n, f) => n + f.size, 0);
        const reported = new Set<number>();
        for (;;) {
          const t = await this.find(hash);
          if (!t) throw new TorrentError('The torrent was removed from the torrent daemon.');
          input.onProgress(Math.min(total, t.completed), total, t.dlspeed);
          if (input.onFile && reported.size < chosen.length) await this.reportFinished(hash, input, chosen, reported);
          if (FAILED.has(t.state)) throw new TorrentError(`The torrent daemon stopped this torrent (${t.state}).`);
          if (COMPLETE.has(t.state) && t.amount_left === 0) break;
          // Stopped in the daemon by someone else: the task is not paused, so it goes on.
          if (STOPPED.has(t.state)) await qb.startTorrent(hash);
          await pause(this.pollMs, signal);
        }
        // qBittorrent lists files in torrent order; 4.5 and later also say each one's index.
        const names = new Map((await qb.torrentFiles(hash)).map((f, i) => [(f as { index?: number }).index ?? i, f.name]));
        // Out of the daemon before Haul moves the files away, so it neither seeds nor re-creates them.
        await this.remove(hash, false);
        held = false;
        await this.partFileGone(input.dir, hash);
        const files: DownloadedFile[] = [];
        for (const c of chosen) {
          const name = names.get(c.index);
          if (!name) throw new TorrentError(`The torrent daemon lists no file ${c.index}.`);
          files.push({ ...c, diskPath: await diskPathIn(input.dir, name, c.size) });
        }
        return { info: info!, files };
      });
    } finally {
      if (held) await this.remove(hash, false);
    }
  }

  /**
   * The daemon says which pieces it has; it fetches in order, each file's first and last pieces first (IN_ORDER), so
   * a player waits for what it asks for without a way to move it ahead. Files are where the torrent names them
   * (content layout "Original"), checked to stay inside the task's folder.
   */
  partial(dir: string, hash: string): PartialTorrent {
    return {
      pathOf: (torrentPath) => insideTaskFolder(dir, resolve(dir, ...torrentPath.split('/'))),
      pieces: async () => {
        const states = await (await this.client()).torrentPieceStates(hash).catch(() => null);
        if (!states) return null;
        const bits = new Uint8Array(Math.ceil(states.length / 8));
        // 2: downloaded and checked.
        states.forEach((state, i) => {
          if (Number(state) === 2) bits[i >> 3]! |= 128 >> (i & 7);
        });
        return bits;
      },
      want: async () => undefined,
    };
  }

  /** Tells `input.onFile` of each chosen file the daemon has complete (every piece verified) and not told of yet. */
  private async reportFinished(hash: string, input: TorrentDownload, chosen: TorrentFileInfo[], reported: Set<number>): Promise<void> {
    const files = await (await this.client()).torrentFiles(hash);
    for (const [i, f] of files.entries()) {
      const index = (f as { index?: number }).index ?? i;
      const c = chosen.find((x) => x.index === index);
      if (!c || reported.has(index) || f.progress < 1) continue;
      // Not on disk under its final name yet (the daemon still moving it): the next poll looks again.
      const diskPath = await diskPathIn(input.dir, f.name, c.size).catch(() => null);
      if (!diskPath) continue;
      reported.add(index);
      input.onFile!({ ...c, diskPath });
    }
  }

  /** `dir` as the daemon sees it. */
  private daemonPath(dir: string): string {
    const rel = relative(this.opts.localRoot, dir);
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`${dir} is not inside ${this.opts.localRoot}`);
    return join(this.opts.daemonRoot, rel);
  }

  private async find(hash: string): Promise<Torrent | undefined> {
    const qb = await this.client();
    return (await qb.listTorrents({ hashes: hash }))[0];
  }

  /** The torrent's file list, once the daemon has its metadata. */
  private async metadata(hash: string): Promise<TorrentInfo | null> {
    const qb = await this.client();
    if ((await qb.torrentFiles(hash)).length === 0) return null;
    return infoOfFile(Buffer.from(await qb.requestArrayBuffer('/torrents/export', { hash })));
  }

  private async addFile(bytes: Buffer, savepath: string, hash: string): Promise<void> {
    await this.guard();
    // Added stopped, so nothing is fetched before the unchosen files are taken out.
    await (await this.client()).addTorrent(new Uint8Array(bytes), { savepath, paused: 'true', contentLayout: 'Original', tags: 'haul', ...IN_ORDER });
    await this.added(hash);
  }

  private async addMagnet(magnet: string, savepath: string, hash: string): Promise<void> {
    // The daemon stops the torrent once its metadata arrived: the files are chosen before any piece is fetched.
    const options = { savepath, paused: 'false', contentLayout: 'Original', tags: 'haul', stopCondition: 'MetadataReceived', ...IN_ORDER } as const;
    await this.guard();
    await (await this.client()).addMagnet(magnet, options as Parameters<QBittorrent['addMagnet']>[1]);
    await this.added(hash);
  }

  /** qBittorrent adds in the background; until the torrent is listed, calls about it are ignored or refused. */
  private async added(hash: string): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await this.find(hash)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new TorrentError('The torrent daemon did not take the torrent.');
  }

  /** Takes a torrent out of the daemon and waits until it is gone; files stay unless `deleteFiles`. */
  private async remove(hash: string, deleteFiles: boolean): Promise<void> {
    try {
      await (await this.client()).removeTorrent(hash, deleteFiles);
      for (let i = 0; i < 40 && (await this.find(hash)); i++) await new Promise((r) => setTimeout(r, 100));
    } catch {
      // The daemon is away: the torrent is found again by its hash and save path when the task runs next.
    }
  }

  /**
   * The daemon keeps pieces shared with unchosen files in `.<hash>.parts` and deletes it once it has let go of the
   * torrent's storage, which happens after the torrent left its list: waited for, so nothing is written to the task's
   * folder after Haul removed it.
   */
  private async partFileGone(dir: string, hash: string): Promise<void> {
    const part = join(dir, `.${hash}.parts`);
    for (let i = 0; i < 100 && (await lstat(part).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
  }

  /** Failures to reach the daemon are worth another attempt, like a dropped swarm. */
  private async daemonErrors<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof TorrentError) throw err;
      // The daemon's address stays out of the task's message, which its owner reads; the log has the details.
      console.warn(`torrent daemon: ${(err as Error).message}`);
      throw new TorrentError('The torrent daemon could not be reached or refused the request.');
    }
  }
}
