/**
 * The loop every worker of rows in `tasks` shares: every second (and when kicked) it claims pending tasks of one type
 * through the database, up to its concurrency, so several processes share the queue and none runs a task twice, with
 * accounts taking turns and none running more than its cap (tasks/turns.ts); running
 * tasks nobody has reported on within the lease (a crash) go back to the queue; stop aborts what runs and waits for it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PHASE } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { TaskRow } from '../db/schema.js';
import { createJobSignals, type JobSignals } from './job-signals.js';
import { claimInTurn } from './claim-in-turn.js';
import { perAccountCap } from './turns.js';

export interface TaskQueueSpec {
  /** The tasks' `type`. */
  type: string;
  /** For the log: "offline", "unpacking". */
  name: string;
  concurrency: () => number;
  /** `log` carries the task's id and, when a request created it, that request's id as reqId. */
  run: (task: TaskRow, signal: AbortSignal, log: FastifyBaseLogger) => Promise<void>;
  /** A kick before start() runs nothing (a process that only serves requests). */
  kickOnlyWhenStarted?: boolean;
  /**
   * A turn's length: a task that has run this long, while another account waits for a slot of this kind, is stopped
   * and goes back to the queue to go on from what it saved (its run must put it back as a graceful stop does). Unset:
   * a task runs to its end.
   */
  turnMs?: () => number;
  /** A task running here was paused or deleted through some process: look at its row now. */
  onStopped?: (taskId: string) => void;
}

export class TaskQueue {
  private running = new Map<string, AbortController>();
  /** When each running task was claimed here, and whose it is: for turns. */
  private started = new Map<string, { at: number; userId: string }>();
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;
  private ticking = false;
  private tickAgain = false;
  private unsubscribe: (() => void)[] = [];
  private readonly signals: JobSignals;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    private readonly spec: TaskQueueSpec,
    /** Wake-ups shared with the other processes (tasks/job-signals.ts); this process only when left out. */
    signals?: JobSignals,
  ) {
    this.signals = signals ?? createJobSignals({ databaseUrl: null, db: ctx.db, log });
  }

  /** Whether stop() was called: a task ending now is being shut down, not finished. */
  get stopped(): boolean {
    return this.stopping;
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), 1000);
    this.timer.unref();
    this.unsubscribe.push(this.signals.onWake(this.spec.type, () => void this.tick()));
    this.unsubscribe.push(this.signals.onStopped((id) => this.running.has(id) && this.spec.onStopped?.(id)));
    void this.tick();
  }

  /** Looks for work now (after a task was created), here and in every process that runs this kind of task. */
  kick(): void {
    this.signals.wake(this.spec.type);
    if (!this.spec.kickOnlyWhenStarted && !this.timer) void this.tick();
  }

  /** Stops one running task of this process (its owner paused or deleted it). */
  abort(taskId: string): void {
    this.running.get(taskId)?.abort();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const off of this.unsubscribe.splice(0)) off();
    if (this.timer) clearInterval(this.timer);
    for (const c of this.running.values()) c.abort();
    while (this.running.size) await new Promise((r) => setTimeout(r, 20));
  }

  /** One look at a time: a wake-up during a look asks for another right after it (claims may have freed up). */
  private async tick(): Promise<void> {
    if (this.stopping) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    try {
      do {
        this.tickAgain = false;
        await this.look();
      } while (this.tickAgain && !this.stopping);
    } finally {
      this.ticking = false;
    }
  }

  private async look(): Promise<void> {
    try {
      await this.reclaimStale();
      await this.endLongTurns();
      while (this.running.size < this.spec.concurrency()) {
        const task = await this.claim();
        if (!task) break;
        const ctrl = new AbortController();
        this.running.set(task.id, ctrl);
        this.started.set(task.id, { at: Date.now(), userId: task.user_id });
        const log = taskLogger(this.log, task);
        log.info(`${this.spec.name} task started`);
        void this.spec
          .run(task, ctrl.signal, log)
          .then(() => log.info(`${this.spec.name} task ended`))
          // A task whose end could not be written (the database is away) stays RUNNING and is taken up after its lease.
          .catch((err) => log.error(err, `${this.spec.name} task stopped without its end being recorded`))
          .finally(() => {
            this.running.delete(task.id);
            this.started.delete(task.id);
          });
      }
    } catch (err) {
      this.log.error(err, `${this.spec.name} worker tick failed`);
    }
  }

  /**
   * With every slot taken, a task past its turn gives way when another account has a task of this kind waiting: it is
   * stopped and goes back to the queue, and the claim that follows serves the account served longest ago.
   */
  private async endLongTurns(): Promise<void> {
    const turn = this.spec.turnMs?.();
    if (!turn || this.running.size < this.spec.concurrency()) return;
    const now = Date.now();
    const long = [...this.started].filter(([, s]) => now - s.at >= turn);
    if (!long.length) return;
    const others = await this.ctx.db
      .selectFrom('tasks')
      .select('user_id')
      .where('type', '=', this.spec.type)
      .where('phase', '=', PHASE.PENDING)
      .where('user_id', 'not in', [...new Set(long.map(([, s]) => s.userId))])
      .limit(1)
      .executeTakeFirst();
    if (!others) return;
    // One at a time: the freed slot goes to the waiting account; the next tick looks again.
    const [id] = long.sort((a, b) => a[1].at - b[1].at)[0]!;
    this.log.info({ task: id }, `${this.spec.name} task gives its turn to another account`);
    this.running.get(id)?.abort();
  }

  /** Running tasks nobody has reported on within the lease go back to the queue. */
  private async reclaimStale(): Promise<void> {
    const cutoff = this.ctx.clock.now() - this.ctx.config.taskLeaseSeconds * 1000;
    let q = this.ctx.db.updateTable('tasks').set({ phase: PHASE.PENDING }).where('type', '=', this.spec.type).where('phase', '=', PHASE.RUNNING).where('updated_time', '<', cutoff);
    if (this.running.size) q = q.where('id', 'not in', [...this.running.keys()]);
    await q.execute();
  }

  /** Takes the oldest waiting task of the account whose turn it is (claim-in-turn.ts). */
  private claim(): Promise<TaskRow | undefined> {
    const now = this.ctx.clock.now();
    const cap = perAccountCap(this.spec.concurrency(), this.ctx.config.tasksPerAccount);
    return claimInTurn(this.ctx.db, { table: 'tasks', key: 'id', type: this.spec.type, cap, set: () => ({ updated_time: now }) }, now);
  }

}

/** A child logger for one task's lines: its id, and the id of the request that created it (so a job can be followed). */
export function taskLogger(log: FastifyBaseLogger, task: Pick<TaskRow, 'id' | 'request_id'>): FastifyBaseLogger {
  return log.child(task.request_id ? { reqId: task.request_id, task: task.id } : { task: task.id });
}
