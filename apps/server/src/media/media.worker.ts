/**
 * Runs transcode jobs: claims pending jobs through the database (so several processes can share the queue), writes
 * each rendition into a scratch folder with progress, moves finished renditions into the blob store, and takes over
 * jobs whose worker stopped reporting (a crash) once the lease runs out; an interrupted rendition starts again.
 */
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { FILE_KIND, isVideo, PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { MediaJobRow, MediaRenditionRow } from '../db/schema.js';
import { claimInTurn } from '../tasks/claim-in-turn.js';
import { perAccountCap } from '../tasks/turns.js';
import { newId } from '../lib/ids.js';
import { addBlobRefs } from '../storage/blobs.repository.js';
import { filesOf, type ParsedPlaylist } from './hls-playlist.js';
import { PLAYLIST_NAME, transcodeRendition } from './hls-transcode.js';
import { mediaDir, withBlobFile } from './media-blobs.js';
import { MediaToolError } from './media-tools.js';
import type { VideoProbe } from './media-probe.js';
import { dropOrphanedMedia, enqueueJob, listRenditions, planRenditions, type SegmentBlob } from './media.repository.js';
import { renditionPlan } from './playback.policy.js';
import { probeContent } from './probe.service.js';
import { createJobSignals, type JobSignals } from '../tasks/job-signals.js';

/** The kind transcode wake-ups carry (tasks/job-signals.ts). */
export const MEDIA_JOBS = 'media';

/** A job claimed this many times without finishing (the process died each time) is given up. */
const MAX_ATTEMPTS = 3;
const PROGRESS_EVERY_MS = 1000;
const SCAN_EVERY_MS = 10_000;
const CLEANUP_EVERY_MS = 3_600_000;

/** The job was taken over or deleted meanwhile: this worker stops without writing anything more. */
class LeaseLost extends Error {}

export class MediaWorker {
  private running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private ticking = false;
  private scannedUntil = 0;
  private lastScan = 0;
  private lastCleanup = 0;
  private tickAgain = false;
  private unsubscribe: (() => void) | null = null;
  private readonly signals: JobSignals;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    /** Wake-ups shared with the other processes; this process only when left out. */
    signals?: JobSignals,
  ) {
    this.signals = signals ?? createJobSignals({ databaseUrl: null, db: ctx.db, log });
  }

  /** Starts polling for work (every 2 s) and the hourly clean-up. */
  start(): void {
    this.stopped = false;
    // Files placed shortly before a restart still get their transcode in on-upload mode.
    this.scannedUntil = this.ctx.clock.now() - 10 * 60_000;
    this.timer = setInterval(() => void this.tick(), 2000);
    this.timer.unref();
    this.unsubscribe = this.signals.onWake(MEDIA_JOBS, () => void this.tick());
    void this.tick();
  }

  /** Looks for work now (after a job was queued), here and in every process that runs transcodes. */
  kick(): void {
    this.signals.wake(MEDIA_JOBS);
  }

  /** Stops the running ffmpeg processes and puts their jobs back in the queue for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const c of this.running.values()) c.abort();
    while (this.running.size) await new Promise((r) => setTimeout(r, 20));
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    // A wake-up during a look asks for another right after it.
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    this.tickAgain = false;
    try {
      const now = Date.now();
      if (now - this.lastCleanup >= CLEANUP_EVERY_MS) {
        this.lastCleanup = now;
        await this.cleanup();
      }
      await this.reclaimStale();
      if (this.ctx.config.transcode === 'on-upload' && now - this.lastScan >= SCAN_EVERY_MS) {
        this.lastScan = now;
        await this.queueNewVideos();
      }
      while (!this.stopped && this.running.size < this.ctx.config.mediaConcurrency) {
        const job = await this.claim();
        if (!job) break;
        const ctrl = new AbortController();
        this.running.set(job.hash, ctrl);
        this.log.info({ hash: job.hash, attempt: job.attempts }, 'transcode started');
        void this.run(job, ctrl.signal)
          // A job whose end could not be written (the database is away) is taken up again after its lease.
          .catch((err) => this.log.error(err, 'transcode stopped without its end being recorded'))
          .finally(() => this.running.delete(job.hash));
      }
    } catch (err) {
      this.log.error(err, 'media worker tick failed');
    } finally {
      this.ticking = false;
      if (this.tickAgain) void this.tick();
    }
  }

  /** Running jobs nobody reported on within the lease go back to the queue (their renditions start over). */
  private async reclaimStale(): Promise<void> {
    const cutoff = this.ctx.clock.now() - this.ctx.config.taskLeaseSeconds * 1000;
    let q = this.ctx.db
      .updateTable('media_jobs')
      .set({ phase: PHASE.PENDING, lease_id: '' })
      .where('phase', '=', PHASE.RUNNING)
      .where('updated_time', '<', cutoff);
    if (this.running.size) q = q.where('hash', 'not in', [...this.running.keys()]);
    const back = await q.returning('hash').execute();
    if (back.length === 0) return;
    await this.ctx.db
      .updateTable('media_renditions')
      .set({ phase: PHASE.PENDING, progress: 0 })
      .where('hash', 'in', back.map((b) => b.hash))
      .where('phase', '=', PHASE.RUNNING)
      .execute();
    this.log.warn({ jobs: back.length }, 'took over transcode jobs whose worker stopped reporting');
  }

  /** on-upload: queues a job for videos placed since the last look (a minute of overlap, so none slips through). */
  private async queueNewVideos(): Promise<void> {
    const now = this.ctx.clock.now();
    const rows = await this.ctx.db
      .selectFrom('files')
      .leftJoin('media_jobs', 'media_jobs.hash', 'files.hash')
      .select(['files.hash', 'files.name', 'files.mime_type', 'files.user_id'])
      .where('files.created_time', '>', this.scannedUntil - 60_000)
      .where('files.kind', '=', FILE_KIND)
      .where('files.phase', '=', PHASE.COMPLETE)
      .where('files.trashed', '=', 0)
      .where('files.hash', '!=', '')
      .where('media_jobs.hash', 'is', null)
      .limit(1000)
      .execute();
    let queued = 0;
    for (const r of rows) if (isVideo(r.name, r.mime_type) && (await enqueueJob(this.ctx.db, r.hash, now, r.user_id))) queued++;
    this.scannedUntil = now;
    if (queued) this.kick();
  }

  /** Takes the oldest waiting job of the account whose turn it is (tasks/claim-in-turn.ts), with a lease of its own. */
  private claim(): Promise<MediaJobRow | undefined> {
    const now = this.ctx.clock.now();
    const cap = perAccountCap(this.ctx.config.mediaConcurrency, this.ctx.config.tasksPerAccount);
    return claimInTurn(this.ctx.db, { table: 'media_jobs', key: 'hash', cap, set: (eb) => ({ lease_id: newId(), updated_time: now, attempts: eb('attempts', '+', 1) }) }, now);
  }

  /** Writes progress while the lease is ours; throws LeaseLost otherwise. */
  private async heartbeat(job: MediaJobRow, progress?: number): Promise<void> {
    const res = await this.ctx.db
      .updateTable('media_jobs')
      .set({ ...(progress !== undefined ? { progress } : {}), updated_time: this.ctx.clock.now() })
      .where('hash', '=', job.hash)
      .where('lease_id', '=', job.lease_id)
      .where('phase', '=', PHASE.RUNNING)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new LeaseLost();
  }

  private async run(job: MediaJobRow, signal: AbortSignal): Promise<void> {
    try {
      if (job.attempts > MAX_ATTEMPTS) throw new MediaToolError('Transcoding was interrupted too many times.');
      const { probe, error } = await probeContent(this.ctx, job.hash, 'video');
      if (!probe || probe.kind !== 'video') throw new MediaToolError(error || 'The file has no video stream.');
      await planRenditions(this.ctx.db, job.hash, renditionPlan(probe), probe.audioCodec !== '', this.ctx.clock.now());
      const rows = await listRenditions(this.ctx.db, job.hash);
      let done = rows.filter((r) => r.phase === PHASE.COMPLETE).length;
      await withBlobFile(this.ctx, job.hash, async (source) => {
        for (const r of rows) {
          if (r.phase === PHASE.COMPLETE) continue;
          await this.runRendition(job, r, source, probe, signal, (f) => Math.floor(((done + f) * 100) / rows.length));
          done++;
        }
      });
      await this.finish(job, PHASE.COMPLETE, '');
    } catch (err) {
      if (err instanceof LeaseLost) return;
      if (signal.aborted && this.stopped) {
        await this.requeue(job);
        return;
      }
      // Our own messages are fit to show; anything else (a disk error naming paths) is logged, not shown.
      const message = err instanceof MediaToolError ? err.message : 'Transcoding failed on the server.';
      this.log.warn({ hash: job.hash, err }, 'transcode failed');
      await this.finish(job, PHASE.ERROR, message).catch((e) => this.log.error(e, 'could not record a failed transcode'));
    }
  }

  /** Transcodes one rendition into scratch space, then moves its files into the blob store and marks it complete. */
  private async runRendition(
    job: MediaJobRow,
    r: MediaRenditionRow,
    source: string,
    probe: VideoProbe,
    signal: AbortSignal,
    overall: (fraction: number) => number,
  ): Promise<void> {
    const scratchName = `${job.hash.slice(0, 16)}-${r.name}-${newId()}`;
    const dir = mediaDir(this.ctx, 'scratch', scratchName);
    // A folder left by a worker that died mid-rendition.
    if (r.scratch) await rm(mediaDir(this.ctx, 'scratch', r.scratch), { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    try {
      await this.heartbeat(job, overall(0));
      await this.setRendition(job, r.name, { phase: PHASE.RUNNING, progress: 0, message: '', scratch: scratchName });
      let last = 0;
      let reporting: Promise<void> = Promise.resolve();
      const ctrl = new AbortController();
      const stop = () => ctrl.abort();
      signal.addEventListener('abort', stop, { once: true });
      let lost: unknown = null;
      try {
        const playlist = await transcodeRendition(this.ctx.config, {
          source,
          scratch: dir,
          width: r.width,
          height: r.height,
          bandwidth: r.bandwidth,
          hasAudio: r.has_audio === 1,
          duration: probe.duration,
          signal: ctrl.signal,
          onProgress: (f) => {
            const now = Date.now();
            if (now - last < PROGRESS_EVERY_MS) return;
            last = now;
            reporting = reporting
              .then(() => this.heartbeat(job, overall(f)))
              .then(() => this.setRendition(job, r.name, { progress: Math.min(99, Math.floor(f * 100)) }))
              .catch((err) => {
                lost = err;
                ctrl.abort();
              });
          },
        });
        await reporting;
        if (lost) throw lost;
        await this.store(job, r, dir, playlist);
      } catch (err) {
        await reporting;
        throw lost ?? err;
      } finally {
        signal.removeEventListener('abort', stop);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Copies the finished files into the blob store and marks the rendition complete, in one transaction with its references. */
  private async store(job: MediaJobRow, r: MediaRenditionRow, dir: string, playlist: ParsedPlaylist): Promise<void> {
    const segments: Record<string, SegmentBlob> = {};
    // Copied, not moved: players of the growing playlist may still be reading these files from scratch space.
    let n = 0;
    for (const name of filesOf(playlist)) {
      const blob = await this.ctx.blobs.put(createReadStream(join(dir, name)));
      segments[name] = { hash: blob.hash, size: blob.size };
      if (++n % 50 === 0) await this.heartbeat(job);
    }
    const text = await readFile(join(dir, PLAYLIST_NAME), 'utf8');
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const mine = await trx.selectFrom('media_jobs').select('hash').where('hash', '=', job.hash).where('lease_id', '=', job.lease_id).executeTakeFirst();
      if (!mine) throw new LeaseLost();
      for (const s of Object.values(segments)) await addBlobRefs(trx, s.hash, s.size, 1, now);
      await trx
        .updateTable('media_renditions')
        .set({ phase: PHASE.COMPLETE, progress: 100, message: '', scratch: '', playlist: text, segments: JSON.stringify(segments), updated_time: now })
        .where('hash', '=', job.hash)
        .where('name', '=', r.name)
        .execute();
    });
  }

  private async setRendition(job: MediaJobRow, name: string, changes: Partial<Pick<MediaRenditionRow, 'phase' | 'progress' | 'message' | 'scratch'>>): Promise<void> {
    await this.ctx.db
      .updateTable('media_renditions')
      .set({ ...changes, updated_time: this.ctx.clock.now() })
      .where('hash', '=', job.hash)
      .where('name', '=', name)
      .execute();
  }

  /** Ends the job; on failure every rendition not finished carries the reason. */
  private async finish(job: MediaJobRow, phase: string, message: string): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('media_jobs')
        .set({ phase, message, progress: phase === PHASE.COMPLETE ? 100 : job.progress, lease_id: '', updated_time: now })
        .where('hash', '=', job.hash)
        .where('lease_id', '=', job.lease_id)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1 || phase !== PHASE.ERROR) return;
      await trx
        .updateTable('media_renditions')
        .set({ phase: PHASE.ERROR, message, scratch: '', updated_time: now })
        .where('hash', '=', job.hash)
        .where('phase', '!=', PHASE.COMPLETE)
        .execute();
    });
  }

  /** Puts a job stopped by shutdown back in the queue, not counting the interrupted attempt. */
  private async requeue(job: MediaJobRow): Promise<void> {
    await this.ctx.db
      .updateTable('media_jobs')
      .set((eb) => ({ phase: PHASE.PENDING, lease_id: '', attempts: eb('attempts', '-', 1) }))
      .where('hash', '=', job.hash)
      .where('lease_id', '=', job.lease_id)
      .execute();
    await this.ctx.db
      .updateTable('media_renditions')
      .set({ phase: PHASE.PENDING, progress: 0, scratch: '' })
      .where('hash', '=', job.hash)
      .where('phase', '=', PHASE.RUNNING)
      .execute();
  }

  /** Drops media of content no longer stored and scratch folders no rendition refers to. */
  private async cleanup(): Promise<void> {
    const dropped = await dropOrphanedMedia(this.ctx.db, this.ctx.clock.now());
    if (dropped) this.log.info({ dropped }, 'dropped media of deleted content');
    const root = mediaDir(this.ctx, 'scratch');
    const names = await readdir(root).catch(() => [] as string[]);
    if (names.length === 0) return;
    const used = new Set(
      (await this.ctx.db.selectFrom('media_renditions').select('scratch').where('scratch', '!=', '').execute()).map((r) => r.scratch),
    );
    const cutoff = Date.now() - this.ctx.config.taskLeaseSeconds * 1000;
    for (const name of names) {
      if (used.has(name)) continue;
      const info = await stat(join(root, name)).catch(() => null);
      if (info && info.mtimeMs < cutoff) await rm(join(root, name), { recursive: true, force: true });
    }
  }
}
