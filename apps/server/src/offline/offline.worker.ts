/**
 * Runs offline downloads: claims pending tasks through the database (so several processes can share
 * the queue), fetches with progress, retries dropped connections, and takes over tasks whose worker
 * stopped reporting (a crash) after the lease runs out.
 */
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import { parseParams } from '../files/files.presenter.js';
import { FetchError, fetchToFile } from './http-fetch.js';
import { monthlyLeft } from '../accounts/traffic.js';
import { freeSpace } from '../files/files.repository.js';
import { completeOfflineTask, OFFLINE, offlinePartPath } from './offline.service.js';

const MAX_ATTEMPTS = 5;
const PROGRESS_EVERY_MS = 1000;

export class OfflineWorker {
  private running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {
    mkdirSync(join(ctx.config.dataDir, 'offline'), { recursive: true });
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), 1000);
    this.timer.unref();
    void this.tick();
  }

  /** Looks for work now (after a task was created). */
  kick(): void {
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const c of this.running.values()) c.abort();
    while (this.running.size) await new Promise((r) => setTimeout(r, 20));
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.reclaimStale();
      while (this.running.size < this.ctx.config.offlineConcurrency) {
        const task = await this.claim();
        if (!task) break;
        const ctrl = new AbortController();
        this.running.set(task.id, ctrl);
        void this.run(task, ctrl.signal).finally(() => this.running.delete(task.id));
      }
    } catch (err) {
      this.log.error(err, 'offline worker tick failed');
    }
  }

  /** Running tasks nobody has reported on within the lease go back to the queue. */
  private async reclaimStale(): Promise<void> {
    const cutoff = this.ctx.clock.now() - this.ctx.config.taskLeaseSeconds * 1000;
    let q = this.ctx.db.updateTable('tasks').set({ phase: PHASE.PENDING }).where('type', '=', OFFLINE).where('phase', '=', PHASE.RUNNING).where('updated_time', '<', cutoff);
    if (this.running.size) q = q.where('id', 'not in', [...this.running.keys()]);
    await q.execute();
  }

  private async claim(): Promise<TaskRow | undefined> {
    const now = this.ctx.clock.now();
    return this.ctx.db
      .updateTable('tasks')
      .set({ phase: PHASE.RUNNING, updated_time: now })
      .where('id', '=', (eb) =>
        eb.selectFrom('tasks').select('id').where('type', '=', OFFLINE).where('phase', '=', PHASE.PENDING).orderBy('created_time').limit(1),
      )
      .where('phase', '=', PHASE.PENDING)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Writes progress. 'paused' or 'gone' when the owner paused or deleted the task meanwhile, which stops the
   * download (a paused one keeps its bytes).
   */
  private async report(task: TaskRow, changes: { progress?: number; message?: string; params?: Record<string, string> }): Promise<'running' | 'paused' | 'gone'> {
    const res = await this.ctx.db
      .updateTable('tasks')
      .set({
        updated_time: this.ctx.clock.now(),
        ...(changes.progress !== undefined ? { progress: changes.progress } : {}),
        ...(changes.message !== undefined ? { message: changes.message } : {}),
        ...(changes.params ? { params: JSON.stringify({ ...parseParams(task.params), ...changes.params }) } : {}),
      })
      .where('id', '=', task.id)
      .where('phase', '=', PHASE.RUNNING)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) return 'running';
    const now = await this.ctx.db.selectFrom('tasks').select('phase').where('id', '=', task.id).executeTakeFirst();
    return now?.phase === PHASE.PAUSED ? 'paused' : 'gone';
  }

  private async fail(task: TaskRow, message: string): Promise<void> {
    await this.ctx.db.updateTable('tasks').set({ phase: PHASE.ERROR, message, updated_time: this.ctx.clock.now() }).where('id', '=', task.id).execute();
  }

  private async run(task: TaskRow, signal: AbortSignal): Promise<void> {
    const params = parseParams(task.params);
    const partPath = offlinePartPath(this.ctx.config.dataDir, task.id);
    let lastReport = 0;
    let lastBytes = 0;
    let gone = false;
    let stopped = false;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !signal.aborted && !stopped; attempt++) {
      try {
        const [space, month] = await Promise.all([freeSpace(this.ctx.db, task.user_id), monthlyLeft(this.ctx, task.user_id, 'offline')]);
        const maxBytes = Math.min(space, month);
        const tooLarge = month < space ? "The file is larger than what is left of this month's cloud download limit." : 'The file is larger than the space left in your drive.';
        let instant: { hash: string; size: number; name: string; mimeType: string } | null = null;
        const result = await fetchToFile({
          url: params.url ?? '',
          partPath,
          allowPrivateNetwork: this.ctx.config.allowPrivateNetwork,
          maxBytes,
          tooLarge,
          signal,
          onMeta: async (meta) => {
            // Content this server already fetched (same final URL and validator) completes without a transfer.
            if (!meta.validator) return true;
            const known = await this.ctx.db.selectFrom('offline_sources').selectAll().where('source_key', '=', `${meta.finalUrl}\n${meta.validator}`).executeTakeFirst();
            if (!known || !(await this.ctx.blobs.has(known.hash))) return true;
            instant = { hash: known.hash, size: known.size, name: meta.name, mimeType: known.mime_type };
            return false;
          },
          onProgress: (received, total) => {
            const now = Date.now();
            if (now - lastReport < PROGRESS_EVERY_MS) return;
            const speed = Math.round(((received - lastBytes) * 1000) / Math.max(1, now - lastReport));
            lastReport = now;
            lastBytes = received;
            const progress = total ? Math.min(99, Math.floor((received * 100) / total)) : 0;
            void this.report(task, { progress, params: { received: String(received), size: total === null ? '' : String(total), speed: String(speed) } }).then((state) => {
              if (state === 'running') return;
              gone = state === 'gone';
              stopped = true;
              this.running.get(task.id)?.abort();
            });
          },
        });
        const done = instant ?? (result ? { hash: result.hash, size: result.size, name: result.name, mimeType: result.mimeType } : null);
        if (!done) throw new FetchError('Nothing was received.', true);
        if (!instant && result) {
          await this.ctx.blobs.adopt(partPath, result.hash);
          if (result.validator) {
            await this.ctx.db
              .insertInto('offline_sources')
              .values({ source_key: `${result.finalUrl}\n${result.validator}`, hash: result.hash, size: result.size, name: result.name, mime_type: result.mimeType, created_at: this.ctx.clock.now() })
              .onConflict((oc) => oc.column('source_key').doUpdateSet({ hash: result.hash, size: result.size }))
              .execute();
          }
        }
        await completeOfflineTask(this.ctx, task, done);
        await rm(partPath, { force: true });
        return;
      } catch (err) {
        if (signal.aborted || stopped) break;
        const retryable = err instanceof FetchError ? err.retryable : false;
        const message = (err as Error).message;
        if (!retryable || attempt === MAX_ATTEMPTS) {
          await this.fail(task, message);
          await rm(partPath, { force: true });
          return;
        }
        const state = await this.report(task, { message });
        if (state !== 'running') {
          gone = state === 'gone';
          break;
        }
        await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** attempt)));
      }
    }
    // Stopped: the owner deleted the task (drop the bytes), paused it or this process is shutting down (keep them to resume).
    if (gone) await rm(partPath, { force: true });
  }
}
