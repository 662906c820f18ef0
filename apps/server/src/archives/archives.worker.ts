/**
 * Runs unpacking tasks: claims pending ones through the database (so several processes share the queue and none runs a
 * task twice), has 7zz write the entries into the task's staging folder (small ones in batches, each run held to the
 * sizes declared), adopts them into the blob store (hashed, fsynced, renamed) while the next run writes, saves what is done so a restart goes on from
 * there, and places everything at the end in one transaction. Running
 * tasks nobody has reported on within the lease (a crash) go back to the queue.
 */
import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { ArchiveJobsTable } from '../db/schema-archives.js';
import type { TaskRow } from '../db/schema.js';
import { freeSpace } from '../quotas/storage-room.js';
import { HttpError } from '../http/errors.js';
import { batches, runBatch, StopTask, type RunEnv, type Staged, type Todo } from './archive-batches.js';
import { jobDone, jobEntries, placeUnpacked, type DoneMap } from './archive-placement.js';
import { hashStaged, splitStaged, stagingDir, sweepStaging, type StagedRun } from './archive-staging.js';
import { DECOMPRESS, openArchiveSource } from './archives.service.js';
import { openPassword } from './password-seal.js';
import { SevenZipError, sevenZipPath } from './seven-zip.js';
import { TaskQueue } from '../tasks/task-queue.js';
import type { JobSignals } from '../tasks/job-signals.js';

const SAVE_EVERY_MS = 1000;

export class ArchiveWorker {
  private readonly queue: TaskQueue;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    signals?: JobSignals,
  ) {
    const spec = {
      type: DECOMPRESS,
      name: 'unpacking',
      concurrency: () => ctx.config.archiveConcurrency,
      // A long unpack gives way to another account's now and then, and goes on from its saved entries after.
      turnMs: () => ctx.config.archiveTurnSeconds * 1000,
      kickOnlyWhenStarted: true,
    };
    const onStopped = (id: string) => void this.stopIfDeleted(id);
    this.queue = new TaskQueue(ctx, log, { ...spec, onStopped, run: (task, signal, taskLog) => this.run(task, signal, taskLog) }, signals);
  }

  /** A task deleted through some process stops now rather than at its next save. */
  private async stopIfDeleted(taskId: string): Promise<void> {
    const row = await this.ctx.db.selectFrom('tasks').select('id').where('id', '=', taskId).executeTakeFirst().catch(() => ({ id: taskId }));
    if (!row) this.queue.abort(taskId);
  }

  start(): void {
    void sweepStaging(this.ctx).catch((err: unknown) => this.log.warn(err, 'clearing unpacking staging failed'));
    this.queue.start();
  }

  /** Looks for work now (after a task was created). */
  kick(): void {
    this.queue.kick();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  /** Saves progress and what is done; false when the task is gone (deleted by its owner) or no longer ours. */
  private async save(taskId: string, progress: number, done: DoneMap): Promise<boolean> {
    const res = await this.ctx.db.transaction().execute(async (trx) => {
      const r = await trx.updateTable('tasks').set({ progress, updated_time: this.ctx.clock.now() }).where('id', '=', taskId).where('phase', '=', PHASE.RUNNING).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) await trx.updateTable('archive_jobs').set({ done: JSON.stringify(done) }).where('task_id', '=', taskId).execute();
      return Number(r.numUpdatedRows) === 1;
    });
    return res;
  }

  /** Ends the task in error; the job row goes, and its sealed password with it. */
  private async fail(taskId: string, message: string, error?: string): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('tasks').select('params').where('id', '=', taskId).executeTakeFirst();
      const params = error && row ? JSON.stringify({ ...JSON.parse(row.params || '{}'), error }) : undefined;
      await trx.updateTable('tasks').set({ phase: PHASE.ERROR, message, updated_time: this.ctx.clock.now(), ...(params ? { params } : {}) }).where('id', '=', taskId).execute();
      await trx.deleteFrom('archive_jobs').where('task_id', '=', taskId).execute();
    });
  }

  private async run(task: TaskRow, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
    const job = await this.ctx.db.selectFrom('archive_jobs').selectAll().where('task_id', '=', task.id).executeTakeFirst();
    if (!job) return this.fail(task.id, 'The task lost what it was to unpack.');
    try {
      const done = await this.unpack(task, job, signal);
      if (!done) return;
      const top = await placeUnpacked(this.ctx, task.id, job, done);
      if (top !== null) log.info({ entries: Object.keys(done).length }, 'archive unpacked');
    } catch (err) {
      if (signal.aborted) {
        // Shutting down, or giving its turn to another account: back in the queue, to go on from what is saved.
        await this.ctx.db.updateTable('tasks').set({ phase: PHASE.PENDING }).where('id', '=', task.id).where('phase', '=', PHASE.RUNNING).execute();
        return;
      }
      if (err instanceof StopTask || err instanceof SevenZipError) return this.fail(task.id, err.message);
      if (err instanceof HttpError) return this.fail(task.id, err.message, err.error);
      log.error(err, 'unpacking failed');
      await this.fail(task.id, 'Unpacking failed on the server.');
    }
  }

  /**
   * Writes every entry not yet done into the task's staging folder, small ones in batches (archive-batches.ts), and
   * adopts each into the store (hashed, fsynced, renamed) while the next run writes; the done map, or null when the
   * task went away.
   */
  private async unpack(task: TaskRow, job: ArchiveJobsTable, signal: AbortSignal): Promise<DoneMap | null> {
    const entries = jobEntries(job);
    const done = jobDone(job);
    const total = entries.reduce((n, e) => n + e.s, 0);
    // Blobs of a run cut short may have been reconciled away since: those entries are unpacked again.
    for (const [i, [hash]] of Object.entries(done)) if (!(await this.ctx.blobs.has(hash))) delete done[i];
    const doneBytes = () => Object.values(done).reduce((n, [, s]) => n + s, 0);
    if (total - doneBytes() > (await freeSpace(this.ctx.db, task.user_id, this.ctx.clock.now()))) {
      throw new StopTask('What the archive unpacks to no longer fits in the space left in your drive.');
    }
    if (!(await this.ctx.blobs.has(job.archive_hash))) throw new StopTask('The archive is no longer stored.');
    const opts = { bin: sevenZipPath(this.ctx.config.sevenZipPath), password: openPassword(this.ctx.secrets.linkKey, job.password), signal };
    // What a run cut short left in staging is not trusted: only the done map counts.
    const dir = stagingDir(this.ctx, task.id);
    await rm(dir, { recursive: true, force: true });
    let streamed = doneBytes();
    let current: StagedRun | null = null;
    let currentBytes = 0;
    const progress = () => (total ? Math.min(99, Math.floor(((streamed + currentBytes) * 100) / total)) : 0);
    // Reported every second, also in the middle of a long entry, so no other process takes the task over; a report
    // that finds the task gone (deleted by its owner) stops the run.
    let gone = false;
    const beat = setInterval(() => {
      void (async () => {
        const writing = current;
        currentBytes = writing ? await writing.written() : 0;
        if (await this.save(task.id, progress(), done)) return;
        gone = true;
        current?.kill();
      })().catch(() => undefined);
    }, SAVE_EVERY_MS);
    // 7zz reads a file on disk: the store's own, or a scratch copy of an object elsewhere, for the whole run.
    const { src, release } = await openArchiveSource(this.ctx, job.archive_hash, job.archive_name);
    const adopting = new Set<Promise<void>>();
    let adoptFailure: unknown = null;
    const env: RunEnv = {
      dir,
      src,
      opts,
      track: (run) => {
        current = run;
        currentBytes = 0;
      },
      gone: () => gone,
    };
    try {
      const todo: Todo[] = [];
      for (const [i, e] of entries.entries()) {
        if (e.d || done[String(i)]) continue;
        // Unpacked before from the same archive (by anyone): done without running 7zz. Never for encrypted entries,
        // whose memo would stand in for the password.
        const memo = e.e ? undefined : `archive:${job.archive_hash}:${job.encoding}:${e.p}`;
        const known = memo ? await this.knownEntry(memo, e.s) : null;
        if (!known) todo.push({ i, e, memo });
        else {
          done[String(i)] = [known, e.s];
          streamed += e.s;
        }
      }
      for (const run of batches(todo)) {
        if (gone) return null;
        if (adoptFailure) throw adoptFailure;
        if (signal.aborted) throw new Error('stopped');
        const staged = await runBatch(env, run);
        if (!staged) return null;
        for (const t of run) streamed += t.e.s;
        // Hashed and adopted while the next run writes; two at most, so memory and open files stay flat.
        const adopted = this.adoptAll(staged, done).catch((err: unknown) => {
          adoptFailure ??= err;
        });
        adopting.add(adopted);
        void adopted.then(() => adopting.delete(adopted));
        if (adopting.size >= 2) await Promise.race(adopting);
      }
      await Promise.all(adopting);
      if (adoptFailure) throw adoptFailure;
    } finally {
      clearInterval(beat);
      // Set by the runs through `env.track`, which the compiler does not follow.
      (current as StagedRun | null)?.kill();
      await Promise.all(adopting);
      await rm(dir, { recursive: true, force: true });
      await release();
    }
    if (gone || !(await this.save(task.id, 99, done))) return null;
    return done;
  }

  /** What a run staged into the store: a batch's file cut into its entries first. */
  private async adoptAll(staged: Staged[], done: DoneMap): Promise<void> {
    for (const s of staged) {
      if ('one' in s) await this.adoptStaged(s.path, s.one, done);
      else {
        const pieces = await splitStaged(s.path, s.batch.map((t) => t.e.s));
        for (const [k, t] of s.batch.entries()) await this.adoptStaged(pieces[k]!.path, t, done, pieces[k]);
      }
    }
  }

  /** A staged entry into the store: held to its declared size, hashed, made durable and renamed; then in `done`. */
  private async adoptStaged(path: string, { i, e, memo }: Todo, done: DoneMap, known?: { hash: string; size: number }): Promise<void> {
    const { hash, size } = known ?? (await hashStaged(path));
    if (size !== e.s) throw new StopTask(`"${e.t.join('/')}" is not the size the archive says: it may be damaged.`);
    await this.ctx.blobs.adopt(path, hash);
    done[String(i)] = [hash, size];
    if (memo) await this.rememberEntry(memo, hash, size, e.t.at(-1)!);
  }

  /** The content of an entry unpacked before, while its blob is still stored. */
  private async knownEntry(key: string, size: number): Promise<string | null> {
    const row = await this.ctx.db.selectFrom('offline_sources').select(['hash', 'size']).where('source_key', '=', key).executeTakeFirst();
    return row && row.size === size && (await this.ctx.blobs.has(row.hash)) ? row.hash : null;
  }

  private async rememberEntry(key: string, hash: string, size: number, name: string): Promise<void> {
    await this.ctx.db
      .insertInto('offline_sources')
      .values({ source_key: key, hash, size, name, mime_type: '', created_at: this.ctx.clock.now() })
      .onConflict((oc) => oc.column('source_key').doUpdateSet({ hash, size }))
      .execute();
  }
}
