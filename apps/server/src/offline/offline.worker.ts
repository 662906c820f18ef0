/**
 * Runs offline downloads: claims pending tasks through the database (so several processes can share
 * the queue), fetches with progress, retries dropped connections, and takes over tasks whose worker
 * stopped reporting (a crash) after the lease runs out.
 */
import { createReadStream, mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import parseTorrent from 'parse-torrent';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { describeError, isAudio, isVideo, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import type { Db } from '../db/database.js';
import { parseParams } from '../lib/params.js';
import { FetchError, fetchToFile, TooLargeError } from './http-fetch.js';
import { openHeaders, SEALED_PARAM, withoutSealed } from './offline-credentials.js';
import { offlineRoom, offlineTooLarge, type OfflineRoom } from './offline-room.js';
import { OFFLINE_REASONS, offlineReason } from './offline-reasons.js';
import { completeOfflineTask, dropOfflineBytes, OFFLINE, offlinePartPath, torrentDir } from './offline.service.js';
import { completeTorrentTask, landTorrentFile, type LandingFile } from './torrent-landing.js';
import { withTaskParams } from './task-params.js';
import { httpSourceKey, knownSource, rememberSource, torrentSourceKey } from './offline-sources.js';
import { TorrentError, type DownloadedFile, type TorrentEngine, type TorrentInfo } from './torrent-types.js';
import { createTorrentEngine } from './torrent-engines.js';
import { StallWatch } from './stall-watch.js';
import { blobBytes } from '../storage/blob-store.js';
import { createContentHasher } from '../storage/content-hash.js';
import { badInput, HttpError, isDatabaseUnavailable, isDiskFull } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { TaskQueue } from '../tasks/task-queue.js';
import type { JobSignals } from '../tasks/job-signals.js';

const MAX_ATTEMPTS = 5;
/** The limits a download can pass, whose errors open the limit dialog. */
const ROOM_ERRORS = new Set(['file_space_not_enough', 'monthly_cloud_download_size_exceeded', 'file_size_too_large']);
const PROGRESS_EVERY_MS = 1000;

export class OfflineWorker {
  private readonly torrents: TorrentEngine;
  private readonly queue: TaskQueue;
  /** Per running task: look at its row now (it was paused or deleted through some process). */
  private readonly rechecks = new Map<string, () => void>();
  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    signals?: JobSignals,
  ) {
    mkdirSync(join(ctx.config.dataDir, 'offline'), { recursive: true });
    this.torrents = createTorrentEngine(ctx.config);
    this.queue = new TaskQueue(
      ctx,
      log,
      {
        type: OFFLINE,
        name: 'offline',
        concurrency: () => ctx.config.offlineConcurrency,
        run: (task, signal, taskLog) => this.run(task, signal, taskLog).finally(() => this.rechecks.delete(task.id)),
        // A process that only serves requests queues downloads for the workers; it runs none itself.
        kickOnlyWhenStarted: true,
        onStopped: (id) => this.rechecks.get(id)?.(),
      },
      signals,
    );
  }

  start(): void {
    this.queue.start();
  }

  /**
   * A torrent's file list: from the .torrent file itself, from one this server saw before, or from peers (a magnet
   * link, up to 30 s). A bad torrent is a 400; no peer in time is a 400 that says so.
   */
  async inspectTorrent(source: Buffer | string): Promise<TorrentInfo> {
    const hash = typeof source === 'string' ? (await parseTorrent(source).catch(() => null))?.infoHash : undefined;
    if (typeof source === 'string' && !hash) throw badInput('The magnet link has no BitTorrent info hash (xt=urn:btih:…).');
    const seen = hash ? await knownSource(this.ctx, torrentSourceKey(hash, 'torrent')) : null;
    const scratch = join(this.ctx.config.dataDir, 'offline', `inspect-${newId()}`);
    try {
      return await this.torrents.inspect(seen ? await blobBytes(this.ctx.blobs, seen.hash) : source, scratch, AbortSignal.timeout(35_000), 30_000);
    } catch (err) {
      if (err instanceof TorrentError) throw badInput(err.message);
      throw err;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Looks for work now (after a task was created). */
  kick(): void {
    this.queue.kick();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  /**
   * Writes progress. 'paused' or 'gone' when the owner paused or deleted the task meanwhile, which stops the
   * download (a paused one keeps its bytes).
   */
  private async report(task: TaskRow, changes: { progress?: number; message?: string; params?: Record<string, string> }): Promise<'running' | 'paused' | 'gone'> {
    const set = {
      updated_time: this.ctx.clock.now(),
      ...(changes.progress !== undefined ? { progress: changes.progress } : {}),
      ...(changes.message !== undefined ? { message: changes.message } : {}),
    };
    const running = (db: Db) => db.updateTable('tasks').where('id', '=', task.id).where('phase', '=', PHASE.RUNNING);
    // Params are merged into the row's own (files of a torrent that landed meanwhile are recorded there).
    const res = changes.params
      ? await withTaskParams(this.ctx, task.id, (params, trx) => running(trx).set({ ...set, params: JSON.stringify({ ...params, ...changes.params }) }).executeTakeFirst())
      : await running(this.ctx.db).set(set).executeTakeFirst();
    if (Number(res?.numUpdatedRows ?? 0) === 1) return 'running';
    const now = await this.ctx.db.selectFrom('tasks').select('phase').where('id', '=', task.id).executeTakeFirst();
    return now?.phase === PHASE.PAUSED ? 'paused' : 'gone';
  }

  /**
   * Ends a task in error: the words of its reason as the message, the reason's code in `params.reason` and what the
   * engine said in `params.detail`; a limit it hit is named in `params.error` (file_space_not_enough, …) with its
   * numbers in `params.limit`, for the client to open the limit dialog.
   */
  private async fail(task: TaskRow, failure: Failure): Promise<void> {
    const limit = failure.limit ? { error: failure.limit.error, limit: failure.limit.message } : {};
    // Sign-in and headers end with the task: a retry is a new task, given them again.
    await withTaskParams(this.ctx, task.id, (params, trx) => {
      const next = JSON.stringify({ ...withoutSealed(params), reason: failure.reason, detail: failure.detail, stage: '', ...limit });
      return trx.updateTable('tasks').set({ phase: PHASE.ERROR, message: failure.message, updated_time: this.ctx.clock.now(), params: next }).where('id', '=', task.id).execute();
    });
  }

  /** What a failed attempt tells: a limit error when the download passed one, else the reason in words. */
  private async failure(task: TaskRow, err: unknown, room: OfflineRoom | null, watch: StallWatch): Promise<Failure> {
    const detail = watch.stalled ? watch.reason : describeError(String((err as Error)?.message ?? err));
    let limit = err instanceof HttpError && ROOM_ERRORS.has(err.error) ? err : null;
    if (!limit && err instanceof TooLargeError && room) limit = await offlineTooLarge(this.ctx, task.user_id, room, err.size);
    const reason = offlineReason(limit ?? err, watch);
    // The watch's own words state the rule it applied (no data, or too little, for how long); they hold nothing raw.
    const message = limit ? describeError(limit.message) : watch.stalled ? watch.reason : OFFLINE_REASONS[reason];
    return { reason, message, detail, limit };
  }

  /**
   * Whether the database answers now: a failure whose code says "connection refused" or "reset" may be the origin's
   * or a peer's as well as the database's, and only the database being away leaves a task to its lease.
   */
  private async databaseAnswers(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.ctx.db);
      return true;
    } catch {
      return false;
    }
  }

  private async run(task: TaskRow, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
    const params = parseParams(task.params);
    const torrent = params.kind === 'bt';
    let lastReport = 0;
    let lastBytes = 0;
    let gone = false;
    let stopped = false;
    let watch: StallWatch | null = null;
    // Progress at most once a second; the answer tells whether the owner paused or deleted the task meanwhile.
    const onProgress = (received: number, total: number | null, speed?: number) => {
      watch?.saw(received);
      const now = Date.now();
      if (now - lastReport < PROGRESS_EVERY_MS) return;
      const rate = speed ?? Math.round(((received - lastBytes) * 1000) / Math.max(1, now - lastReport));
      lastReport = now;
      lastBytes = received;
      const progress = total ? Math.min(99, Math.floor((received * 100) / total)) : 0;
      const stage = torrent && received === 0 ? waiting : { stage: '' };
      void this.report(task, { progress, params: { ...stage, received: String(received), size: total === null ? '' : String(total), speed: String(rate) } })
        .then(heard)
        // Not recorded (the database is away): the next report tries again, and the lease covers a long absence.
        .catch(() => undefined);
    };
    // A torrent before its first byte is looking for peers: since when, and the rule by which an attempt gives up.
    const peersSince = String(this.ctx.clock.now());
    let waiting: Record<string, string> = {};
    const heard = (state: 'running' | 'paused' | 'gone') => {
      if (state === 'running') return;
      gone = state === 'gone';
      stopped = true;
      this.queue.abort(task.id);
    };
    // Paused or deleted through any process: known at once, not at the next report (a silent origin sends none).
    this.rechecks.set(task.id, () => void this.report(task, {}).then(heard).catch(() => undefined));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !signal.aborted && !stopped; attempt++) {
      let room: OfflineRoom | null = null;
      watch = new StallWatch(signal, this.ctx.config.stallTimeoutSeconds * 1000, this.ctx.config.offlineMinRate);
      try {
        room = await offlineRoom(this.ctx, task.user_id);
        if (torrent) {
          const { stallTimeoutSeconds, offlineMinRate } = this.ctx.config;
          waiting = { stage: 'peers', peers_since: peersSince, stall_seconds: String(stallTimeoutSeconds), min_rate: String(offlineMinRate), attempt: String(attempt), attempts: String(MAX_ATTEMPTS) };
          const state = await this.report(task, { params: waiting });
          if (state !== 'running') {
            gone = state === 'gone';
            stopped = true;
            break;
          }
        }
        if (torrent) await this.runTorrent(task, params, room, watch.signal, onProgress);
        else await this.runHttp(task, params, room, watch.signal, onProgress);
        log.info({ attempt }, 'cloud download complete');
        return;
      } catch (err) {
        if (signal.aborted || stopped) break;
        // The database went away (placing the file, say): not the download's fault. The task stays running and is
        // taken up again after its lease, from the bytes it kept, as after a crash.
        if (isDatabaseUnavailable(err) && !(await this.databaseAnswers())) throw err;
        // The server's disk filled up (here, or in the BitTorrent thread): the task fails and gives its space back.
        const full = isDiskFull(err) || /\bENOSPC\b/.test(String((err as Error).message));
        const retryable = full ? false : watch.stalled || (err instanceof FetchError ? err.retryable : err instanceof TorrentError ? err.retryable : false);
        const failure = await this.failure(task, err, room, watch);
        if (!retryable || attempt === MAX_ATTEMPTS) {
          // Bytes first: on a full disk the database may need that space to record the failure.
          await dropOfflineBytes(this.ctx.config.dataDir, task.id);
          await this.fail(task, failure);
          log.warn({ attempt, reason: failure.reason, detail: failure.detail }, 'cloud download failed');
          return;
        }
        const message = failure.message;
        log.info({ attempt, reason: failure.reason, detail: failure.detail }, 'cloud download attempt failed; trying again');
        const state = await this.report(task, { message, params: { reason: failure.reason, detail: failure.detail } });
        if (state !== 'running') {
          gone = state === 'gone';
          break;
        }
        await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** attempt)));
      } finally {
        watch.stop();
      }
    }
    // Stopped: the owner deleted the task (drop the bytes), paused it or this process is shutting down (keep them to resume).
    if (gone) await dropOfflineBytes(this.ctx.config.dataDir, task.id);
    // Shutting down: back in the queue, so the next start (or another process) takes it up without waiting for its lease.
    else if (!stopped && this.queue.stopped) {
      await this.ctx.db.updateTable('tasks').set({ phase: PHASE.PENDING }).where('id', '=', task.id).where('phase', '=', PHASE.RUNNING).execute();
    }
  }

  /** An http(s) link: one file, hashed while it streams, resumed with Range. */
  private async runHttp(task: TaskRow, params: Record<string, string>, room: OfflineRoom, signal: AbortSignal, onProgress: Progress): Promise<void> {
    const partPath = offlinePartPath(this.ctx.config.dataDir, task.id);
    let instant: { hash: string; size: number; name: string; mimeType: string } | null = null;
    const result = await fetchToFile({
      url: params.url ?? '',
      headers: openHeaders(this.ctx.secrets, params[SEALED_PARAM]),
      partPath,
      allowPrivateNetwork: this.ctx.config.allowPrivateNetwork,
      timeoutMs: this.ctx.config.networkTimeoutSeconds * 1000,
      maxBytes: room.maxBytes,
      signal,
      onMeta: async (meta) => {
        // Content this server already fetched (same final URL and validator) completes without a transfer.
        if (!meta.validator) return true;
        const known = await knownSource(this.ctx, httpSourceKey(meta.finalUrl, meta.validator));
        if (!known) return true;
        instant = { hash: known.hash, size: known.size, name: meta.name, mimeType: known.mime_type };
        return false;
      },
      onProgress: (received, total) => onProgress(received, total),
    });
    const done = instant ?? (result ? { hash: result.hash, size: result.size, name: result.name, mimeType: result.mimeType } : null);
    if (!done) throw new FetchError('Nothing was received.', true);
    if (!instant && result) {
      await this.ctx.blobs.adopt(partPath, result.hash);
      if (result.validator) await rememberSource(this.ctx, httpSourceKey(result.finalUrl, result.validator), result);
    }
    await completeOfflineTask(this.ctx, task, done);
    await rm(partPath, { force: true });
  }

  /**
   * A magnet link or .torrent file: the chosen files, then each hashed into the store. Files fetched before (same info
   * hash, same file) by anyone are not downloaded again; when all are known the task completes without a peer.
   */
  private async runTorrent(task: TaskRow, params: Record<string, string>, room: OfflineRoom, signal: AbortSignal, onProgress: Progress): Promise<void> {
    const dir = torrentDir(this.ctx.config.dataDir, task.id);
    // A magnet link whose torrent this server has seen needs no peer for the file list.
    let source: Buffer | string = params.torrent ? Buffer.from(params.torrent, 'base64') : (params.url ?? '');
    const magnetHash = typeof source === 'string' ? (await parseTorrent(source).catch(() => null))?.infoHash : undefined;
    const seen = magnetHash ? await knownSource(this.ctx, torrentSourceKey(magnetHash, 'torrent')) : null;
    if (seen) source = await blobBytes(this.ctx.blobs, seen.hash);
    const fileIds = params.file_ids ? params.file_ids.split(',').map(Number) : [];
    // Files of a multi-file torrent land as each is done; their hashes are kept for the end.
    const early = new Map<number, string>();
    let multiFile = false;
    let landing = Promise.resolve();
    const landEarly = async (f: DownloadedFile, infoHash: string) => {
      const hash = f.hash ?? (await hashFile(f.diskPath));
      early.set(f.index, hash);
      // The engine may still read through the file (pieces it shares with the next one): the store takes a link.
      await this.ctx.blobs.adopt(f.diskPath, hash, { keep: true });
      await rememberSource(this.ctx, torrentSourceKey(infoHash, f.index), { hash, size: f.size, name: f.path.at(-1)!, mimeType: '' });
      await landTorrentFile(this.ctx, task, { index: f.index, path: f.path, hash, size: f.size });
    };
    let torrentHash = '';
    // Set from the metadata callback (TypeScript cannot see that assignment, hence the cast).
    let known = null as { info: TorrentInfo; files: LandingFile[] } | null;
    const result = await this.torrents.download({
      source,
      dir,
      fileIds,
      signal,
      onMeta: async (info, chosen) => {
        const total = chosen.reduce((n, f) => n + f.size, 0);
        if (total > room.maxBytes) throw await offlineTooLarge(this.ctx, task.user_id, room, total);
        if (!seen) {
          const blob = await this.ctx.blobs.put(Readable.from([info.torrentFile]));
          await rememberSource(this.ctx, torrentSourceKey(info.infoHash, 'torrent'), { ...blob, name: `${info.name}.torrent`, mimeType: 'application/x-bittorrent' });
        }
        const stored = await Promise.all(chosen.map((f) => knownSource(this.ctx, torrentSourceKey(info.infoHash, f.index))));
        if (stored.every(Boolean)) {
          known = { info, files: chosen.map((f, i) => ({ index: f.index, path: f.path, hash: stored[i]!.hash, size: stored[i]!.size })) };
          return false;
        }
        multiFile = info.multiFile;
        torrentHash = info.infoHash;
        // Songs and videos among the chosen files play while they download (torrent-play.ts).
        const playable = chosen.some((f) => isVideo(f.path.at(-1)!) || isAudio(f.path.at(-1)!));
        await this.report(task, { params: { size: String(total), info_hash: info.infoHash, file_count: String(chosen.length), playable: playable ? '1' : '' } });
        return true;
      },
      onProgress: (received, total, speed) => onProgress(received, total, speed),
      onFile: (f) => {
        if (!multiFile) return;
        // One at a time, in the order they finished. One that cannot land now (no room left) lands with the rest, or
        // fails the task for the same reason then.
        landing = landing.then(() => landEarly(f, torrentHash)).catch((err: Error) => this.log.warn({ task: task.id, err: err.message }, 'a finished torrent file could not land early'));
      },
    });
    await landing;
    if (!known && !result) throw new TorrentError('The torrent stopped before its files arrived.', true);
    let files = known?.files;
    if (!files) {
      // One file at a time: hashed by the engine as it arrived (else read whole once here), then moved into the store.
      files = [];
      for (const f of result!.files) {
        const hash = f.hash ?? early.get(f.index) ?? (await hashFile(f.diskPath));
        await this.ctx.blobs.adopt(f.diskPath, hash);
        await rememberSource(this.ctx, torrentSourceKey(result!.info.infoHash, f.index), { hash, size: f.size, name: f.path.at(-1)!, mimeType: '' });
        files.push({ index: f.index, path: f.path, hash, size: f.size });
      }
    }
    const info = known?.info ?? result!.info;
    await completeTorrentTask(this.ctx, task, { name: info.name, multiFile: info.multiFile, files });
    await dropOfflineBytes(this.ctx.config.dataDir, task.id);
  }
}

/** How an attempt failed, in the words and codes the task keeps. */
interface Failure {
  reason: ReturnType<typeof offlineReason>;
  message: string;
  detail: string;
  limit: HttpError | null;
}
type Progress = (received: number, total: number | null, speed?: number) => void;

/** The content hash of a file on disk, read once. */
async function hashFile(path: string): Promise<string> {
  const h = await createContentHasher();
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) h.update(chunk as Buffer);
  return h.digest();
}
