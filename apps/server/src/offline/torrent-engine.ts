/**
 * The built-in BitTorrent engine: WebTorrent 3 in a thread of its own (torrent-thread.mjs), whose every socket goes
 * through the network guard unless private networks are allowed, and whose piece checks and disk writes stay off the
 * server's event loop. This side turns the engine interface into messages: a job per call, its metadata answered here
 * (names made safe and files chosen here), progress relayed, aborts passed on. A thread that dies fails its jobs as
 * worth retrying, and the next job starts a new one.
 *
 * The thread costs memory while it lives (WebTorrent loaded, a heap of its own, pages its allocator keeps), so it ends
 * once it has had no job for `idleMs`; the next job starts a new one in well under a second.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import filenameReservedRegex from 'filename-reserved-regex';
import { chosenFiles, insideTaskFolder, TorrentError, torrentInfoOf, type DownloadedFile, type PartialTorrent, type TorrentDownload, type TorrentEngine, type TorrentInfo, type TorrentMeta, type TorrentSource } from './torrent-types.js';

export { TorrentError, type DownloadedFile, type TorrentFileInfo, type TorrentInfo, type TorrentSource } from './torrent-types.js';

export interface TorrentEngineOptions {
  /** The DHT finds peers without trackers; off in tests, where every peer is on loopback. */
  dht: boolean;
  /** Let the engine reach loopback and private networks (trackers, peers, web seeds); off: every socket is guarded. */
  allowPrivateNetwork: boolean;
  /** How long the thread stays once its last job is over (its clients closed), in ms; 30 s unless set. */
  idleMs?: number;
}

/**
 * The thread's young generation, in MB (V8's default lets it grow to ~32 MB and the heap to ~50 MB committed). A
 * download allocates a buffer for every socket read and every piece, all short-lived: a small young generation
 * collects them as often, at no measured cost in time, and keeps the thread's heap at ~18 MB.
 */
const THREAD_YOUNG_GENERATION_MB = 2;

/** Where WebTorrent's file store keeps a torrent file: under `dir`, its own name without reserved characters. */
export function diskPathOf(dir: string, torrentPath: string): string {
  return join(dir, dirname(torrentPath), basename(torrentPath).replace(filenameReservedRegex(), ''));
}

type FromThread =
  | { type: 'ready' }
  | { type: 'idle' }
  | { id: number; type: 'meta'; meta: TorrentMeta }
  | { id: number; type: 'progress'; received: number; total: number; speed: number }
  | { id: number; type: 'file'; index: number; path: string; hash: string }
  | { id: number; type: 'done'; meta: TorrentMeta | null; paths?: string[]; hashes?: string[] | null }
  | { id: number; type: 'error'; message: string; retryable: boolean };
type JobMessage = Exclude<FromThread, { type: 'ready' | 'idle' }>;
type Reply = (msg: Record<string, unknown>) => void;

/** The built-in engine: jobs run in one shared thread, each with its own WebTorrent client. */
export class BuiltinTorrentEngine implements TorrentEngine {
  private worker: Worker | null = null;
  private readonly jobs = new Map<number, (m: JobMessage) => void>();
  private ids = 0;
  /** The end of a thread that said it was idle, pending; a job sent to it cancels it. */
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: TorrentEngineOptions) {}

  /** Whether the engine's thread is alive now (it starts with a job and ends once idle). */
  get threadRunning(): boolean {
    return this.worker !== null;
  }

  /** Ends the thread `idleMs` after it said it was idle, unless a job came in meanwhile. */
  private endWhenIdle(worker: Worker): void {
    if (this.worker !== worker || this.jobs.size > 0) return;
    this.cancelIdleEnd();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker !== worker || this.jobs.size > 0) return;
      this.worker = null;
      void worker.terminate();
    }, this.opts.idleMs ?? 30_000);
    this.idleTimer.unref();
  }

  private cancelIdleEnd(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./torrent-thread.mjs', import.meta.url), {
      // Not the server's loader flags (the thread is plain JavaScript); a CPU or heap profile asked of the process
      // covers the thread too.
      execArgv: process.execArgv.filter((a) => /^--(cpu|heap)-prof/.test(a)),
      workerData: { dht: this.opts.dht, allowPrivateNetwork: this.opts.allowPrivateNetwork },
      resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    });
    worker.on('message', (m: FromThread) => {
      if (m.type === 'idle') this.endWhenIdle(worker);
      else if (m.type !== 'ready') this.jobs.get(m.id)?.(m);
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const [id, on] of this.jobs) on({ id, type: 'error', message: `The BitTorrent engine stopped (${why}); the task will be tried again.`, retryable: true });
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    // Held only while a job runs, so an idle engine never keeps the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Runs one job in the thread; `onMessage` sees its metadata and progress, and makes the result from 'done'. */
  private job<T>(start: Record<string, unknown>, signal: AbortSignal, onMessage: (m: JobMessage, reply: Reply) => Promise<T | undefined> | T | undefined): Promise<T> {
    const worker = this.thread();
    const id = ++this.ids;
    const reply: Reply = (msg) => worker.postMessage({ ...msg, id });
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reply({ op: 'abort' });
      const end = (err: Error | null, value?: T) => {
        if (!this.jobs.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        if (this.jobs.size === 0) worker.unref();
        if (err) reject(err);
        else resolve(value as T);
      };
      this.jobs.set(id, (m) => {
        if (m.type === 'error') return end(new TorrentError(m.message, m.retryable));
        Promise.resolve()
          .then(() => onMessage(m, reply))
          .then(
            (value) => {
              if (m.type === 'done') end(null, value);
            },
            (err: Error) => {
              // A refusal from this side (too large, a bad choice of files) stops the job in the thread too.
              reply({ op: 'abort' });
              end(err);
            },
          );
      });
      if (signal.aborted) return end(new TorrentError('Stopped.'));
      signal.addEventListener('abort', onAbort, { once: true });
      // A job for the thread: it stays.
      this.cancelIdleEnd();
      worker.ref();
      reply(start);
    });
  }

  /** The thread shares what it has beside the task's folder (torrent-thread.mjs, sharePieces), for any process. */
  partial(dir: string): PartialTorrent {
    return {
      pathOf: (torrentPath) => insideTaskFolder(dir, diskPathOf(dir, torrentPath)),
      pieces: () => readFile(`${dir}.pieces`).then((b) => new Uint8Array(b), () => null),
      want: (from, to) => writeFile(`${dir}.wanted`, JSON.stringify({ from, to })).catch(() => undefined),
    };
  }

  /** The file list of a torrent, for the person to choose from; nothing is downloaded. */
  inspect(source: TorrentSource, scratchDir: string, signal: AbortSignal, timeoutMs = 60_000): Promise<TorrentInfo> {
    return this.job<TorrentInfo>({ op: 'inspect', source, dir: scratchDir, timeoutMs }, signal, (m) =>
      m.type === 'done' && m.meta ? torrentInfoOf(m.meta) : undefined,
    );
  }

  /**
   * Downloads the chosen files (all when `fileIds` is empty) into `dir`. `onMeta` sees the file list first and may
   * stop the download by returning false (content already stored, too large for the quota).
   */
  download(input: TorrentDownload): Promise<{ info: TorrentInfo; files: DownloadedFile[] } | null> {
    let info: TorrentInfo | null = null;
    const start = { op: 'download', source: input.source, dir: input.dir, timeoutMs: input.metadataTimeoutMs ?? 120_000 };
    return this.job(start, input.signal, async (m, reply) => {
      if (m.type === 'meta') {
        info = torrentInfoOf(m.meta);
        const chosen = chosenFiles(info, input.fileIds);
        const go = await input.onMeta(info, chosen);
        reply({ op: 'answer', indexes: go ? chosen.map((c) => c.index) : null });
      } else if (m.type === 'progress') {
        input.onProgress(m.received, m.total, m.speed);
      } else if (m.type === 'file' && info) {
        const c = info.files[m.index];
        if (c) input.onFile?.({ ...c, diskPath: diskPathOf(input.dir, m.path), hash: m.hash });
      } else if (m.type === 'done') {
        if (!m.meta || !m.paths || !info) return null;
        const chosen = chosenFiles(info, input.fileIds);
        const hashes = m.hashes;
        return { info, files: chosen.map((c, i) => ({ ...c, diskPath: diskPathOf(input.dir, m.paths![i]!), ...(hashes ? { hash: hashes[i]! } : {}) })) };
      }
      return undefined;
    });
  }
}
