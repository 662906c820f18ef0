/**
 * Wake-ups between the processes of one site. An API process that queues work (a cloud download, a transcode, an
 * unpacking) or pauses or deletes a task says so here; every process running workers hears it at once instead of on
 * its next poll. On PostgreSQL this is LISTEN/NOTIFY on one channel (payload: the job kind, or `stop:<task id>`), with
 * one dedicated listening connection per process that reconnects after a drop; on SQLite (one machine, usually one
 * process) only this process is told, and other processes find the work on their next poll as before.
 */
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type pg from 'pg';
import { loadPg, type Db } from '../db/database.js';

/** The PostgreSQL channel every process of a site listens on. */
export const JOBS_CHANNEL = 'haul_jobs';
const STOP_PREFIX = 'stop:';
/** The first wait before listening again after the connection dropped; doubled up to RETRY_MAX_MS. */
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

/** What a worker may be woken for: the task types of `tasks`, and `media` for transcode jobs. */
export type JobKind = string;

export interface JobSignals {
  /** Work of this kind is waiting: wakes the workers of this process and of every other. */
  wake(kind: JobKind): void;
  /** These tasks were paused or deleted: whoever runs one stops it now instead of at its next report. */
  stopped(taskIds: string[]): void;
  /** Calls `fn` on every wake-up of `kind` (from any process); returns a function that stops listening. */
  onWake(kind: JobKind, fn: () => void): () => void;
  /** Calls `fn` with each task paused or deleted (by any process); returns a function that stops listening. */
  onStopped(fn: (taskId: string) => void): () => void;
  /** Resolves once this process hears other processes (at once on SQLite); for tests and logs. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The signals of this process: across processes on PostgreSQL (`databaseUrl`), within it on SQLite. */
export function createJobSignals(opts: { databaseUrl: string | null; db: Db; log: FastifyBaseLogger }): JobSignals {
  return opts.databaseUrl ? new PgJobSignals(opts.databaseUrl, opts.db, opts.log) : new LocalJobSignals();
}

/** Delivery inside this process. */
class LocalJobSignals implements JobSignals {
  protected readonly events = new EventEmitter();

  constructor() {
    // Every worker kind and every running task may listen; that is not a leak.
    this.events.setMaxListeners(0);
  }

  wake(kind: JobKind): void {
    this.deliver(kind);
  }

  stopped(taskIds: string[]): void {
    for (const id of taskIds) this.deliver(`${STOP_PREFIX}${id}`);
  }

  onWake(kind: JobKind, fn: () => void): () => void {
    this.listening();
    this.events.on(`wake:${kind}`, fn);
    return () => this.events.off(`wake:${kind}`, fn);
  }

  onStopped(fn: (taskId: string) => void): () => void {
    this.listening();
    this.events.on('stop', fn);
    return () => this.events.off('stop', fn);
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.events.removeAllListeners();
  }

  /** A payload heard here or from another process. */
  protected deliver(payload: string): void {
    if (payload.startsWith(STOP_PREFIX)) this.events.emit('stop', payload.slice(STOP_PREFIX.length));
    else this.events.emit(`wake:${payload}`);
  }

  /** Called when something subscribes: the PostgreSQL side starts listening then, so API-only processes never do. */
  protected listening(): void {}
}

/** LISTEN on a connection of its own, NOTIFY through the pool. */
class PgJobSignals extends LocalJobSignals {
  private client: pg.Client | null = null;
  private started = false;
  private closed = false;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | null = null;
  private connected: Promise<void>;
  private markConnected: () => void = () => undefined;

  constructor(
    private readonly url: string,
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
    this.connected = new Promise((r) => (this.markConnected = r));
  }

  override wake(kind: JobKind): void {
    // At once here; the other processes through the database (this one hears its own NOTIFY too: a second look finds
    // nothing more to claim).
    this.deliver(kind);
    this.notify(kind);
  }

  override stopped(taskIds: string[]): void {
    for (const id of taskIds) {
      this.deliver(`${STOP_PREFIX}${id}`);
      this.notify(`${STOP_PREFIX}${id}`);
    }
  }

  override ready(): Promise<void> {
    this.listening();
    return this.connected;
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
    await super.close();
  }

  protected override listening(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
  }

  /** Fire and forget: a lost NOTIFY costs a wait until the next poll, never the work itself. */
  private notify(payload: string): void {
    sql`select pg_notify(${JOBS_CHANNEL}, ${payload})`.execute(this.db).catch((err: Error) => this.log.warn({ err: err.message }, 'could not signal other processes; they find the work on their next poll'));
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const lib = await loadPg();
    if (this.closed) return;
    const client = new lib.Client({ connectionString: this.url, connectionTimeoutMillis: 5000, keepAlive: true });
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.log.warn({ err: err?.message, retryInMs: this.retryMs }, 'lost the connection that hears other processes; listening again soon');
      this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
      this.retryTimer.unref();
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    };
    client.on('error', drop);
    client.on('end', () => drop());
    client.on('notification', (n) => {
      if (n.channel === JOBS_CHANNEL && n.payload) this.deliver(n.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${JOBS_CHANNEL}`);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (this.closed) return void client.end().catch(() => undefined);
    this.client = client;
    this.retryMs = RETRY_MIN_MS;
    this.markConnected();
    // Whatever was signalled while nobody listened: every worker looks once.
    for (const name of this.events.eventNames()) if (typeof name === 'string' && name.startsWith('wake:')) this.events.emit(name);
  }
}
