/**
 * The loop every worker of rows in `tasks` shares: every second (and when kicked) it claims pending tasks of one type
 * through the database, up to its concurrency, so several processes share the queue and none runs a task twice; running
 * tasks nobody has reported on within the lease (a crash) go back to the queue; stop aborts what runs and waits for it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';

export interface TaskQueueSpec {
  /** The tasks' `type`. */
  type: string;
  /** For the log: "offline", "unpacking". */
  name: string;
  concurrency: () => number;
  run: (task: TaskRow, signal: AbortSignal) => Promise<void>;
  /** A kick before start() runs nothing (a process that only serves requests). */
  kickOnlyWhenStarted?: boolean;
}

export class TaskQueue {
  private running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly spec: TaskQueueSpec,
  ) {}

  /** Whether stop() was called: a task ending now is being shut down, not finished. */
  get stopped(): boolean {
    return this.stopping;
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), 1000);
    this.timer.unref();
    void this.tick();
  }

  /** Looks for work now (after a task was created). */
  kick(): void {
    if (!this.spec.kickOnlyWhenStarted || this.timer) void this.tick();
  }

  /** Stops one running task of this process (its owner paused or deleted it). */
  abort(taskId: string): void {
    this.running.get(taskId)?.abort();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    for (const c of this.running.values()) c.abort();
    while (this.running.size) await new Promise((r) => setTimeout(r, 20));
  }

  private async tick(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.reclaimStale();
      while (this.running.size < this.spec.concurrency()) {
        const task = await this.claim();
        if (!task) break;
        const ctrl = new AbortController();
        this.running.set(task.id, ctrl);
        void this.spec
          .run(task, ctrl.signal)
          // A task whose end could not be written (the database is away) stays RUNNING and is taken up after its lease.
          .catch((err) => this.log.error(err, `${this.spec.name} task stopped without its end being recorded`))
          .finally(() => this.running.delete(task.id));
      }
    } catch (err) {
      this.log.error(err, `${this.spec.name} worker tick failed`);
    }
  }

  /** Running tasks nobody has reported on within the lease go back to the queue. */
  private async reclaimStale(): Promise<void> {
    const cutoff = this.ctx.clock.now() - this.ctx.config.taskLeaseSeconds * 1000;
    let q = this.ctx.db.updateTable('tasks').set({ phase: PHASE.PENDING }).where('type', '=', this.spec.type).where('phase', '=', PHASE.RUNNING).where('updated_time', '<', cutoff);
    if (this.running.size) q = q.where('id', 'not in', [...this.running.keys()]);
    await q.execute();
  }

  /** A conditional update: of processes racing for one task, exactly one sees its row change. */
  private async claim(): Promise<TaskRow | undefined> {
    const now = this.ctx.clock.now();
    return this.ctx.db
      .updateTable('tasks')
      .set({ phase: PHASE.RUNNING, updated_time: now })
      .where('id', '=', (eb) => eb.selectFrom('tasks').select('id').where('type', '=', this.spec.type).where('phase', '=', PHASE.PENDING).orderBy('created_time').limit(1))
      .where('phase', '=', PHASE.PENDING)
      .returningAll()
      .executeTakeFirst();
  }
}
