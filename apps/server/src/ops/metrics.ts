/**
 * Prometheus metrics of one process (prom-client, its own registry, so two servers in one process stay apart):
 * HTTP requests by route pattern, bytes on the wire, blob store latency by operation, jobs by kind and state (read
 * from the database at scrape time, so every process reports the whole queue), and Node's process metrics.
 */
import { statfs } from 'node:fs/promises';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PHASE } from '@haul/shared';
import type { Db, PoolUse } from '../db/database.js';

/** Label of requests no route matched: their raw paths would give every scanner its own series. */
export const UNMATCHED_ROUTE = '(unmatched)';
/** Job kinds always reported (zero when idle), so a dashboard has its series from the start. */
const KNOWN_KINDS = ['offline', 'decompress', 'transcode'];
const STATES: Record<string, string> = { [PHASE.PENDING]: 'queued', [PHASE.RUNNING]: 'running', [PHASE.ERROR]: 'failed' };

/** The metrics a Haul process keeps; the blob store decorator and the HTTP hooks write into them. */
export class HaulMetrics {
  readonly registry = new Registry();
  readonly blobSeconds = new Histogram({
    name: 'haul_blob_store_duration_seconds',
    help: 'Blob store calls by operation: to settle (put, adopt, has, delete) or to the first byte (read).',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly requests = new Counter({
    name: 'haul_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'haul_http_request_duration_seconds',
    help: 'Time from the request arriving to the answer being handed to the socket.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [this.registry],
  });
  private readonly received = new Counter({
    name: 'haul_http_received_bytes_total',
    help: 'Request body bytes (uploads, WebDAV PUT, JSON), by route pattern.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  private readonly sent = new Counter({
    name: 'haul_http_sent_bytes_total',
    help: 'Response bytes written to the socket (status line, headers and body: downloads, media, JSON), by route pattern.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  constructor(db: Db, log: FastifyBaseLogger, opts: { pool?: PoolUse; now?: () => number; dataDir?: string } = {}) {
    const { pool, now = Date.now, dataDir } = opts;
    collectDefaultMetrics({ register: this.registry });
    if (pool) this.poolMetrics(pool);
    if (dataDir) this.diskMetrics(dataDir);
    new Gauge({
      name: 'haul_jobs',
      help: 'Background jobs by kind and state: queued and running now, failed among those created in the last 24 hours; across every process sharing the database.',
      labelNames: ['kind', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const kind of KNOWN_KINDS) for (const state of Object.values(STATES)) this.set({ kind, state }, 0);
        try {
          for (const r of await countJobs(db, now())) this.set({ kind: r.kind, state: STATES[r.phase]! }, r.n);
        } catch (err) {
          // The database is away: /readyz says so; the scrape still answers with what this process knows.
          log.warn({ err: (err as Error).message }, 'job counts could not be read for /metrics');
        }
      },
    });
  }

  /**
   * The disk of the data folder, read at scrape time: uploads in flight, cloud downloads, local blobs and SQLite live
   * there, and when it fills, uploads and cloud downloads stop (507).
   */
  private diskMetrics(dataDir: string): void {
    new Gauge({
      name: 'haul_data_disk_bytes',
      help: 'The disk holding the data folder: its size, and the bytes free to Haul.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        const fs = await statfs(dataDir).catch(() => null);
        if (!fs) return;
        this.set({ state: 'size' }, fs.blocks * fs.bsize);
        this.set({ state: 'free' }, fs.bavail * fs.bsize);
      },
    });
  }

  /** PostgreSQL's connections, read at scrape time: in use, idle, queries waiting, and the time spent getting one. */
  private poolMetrics(pool: PoolUse): void {
    const registers = [this.registry];
    new Gauge({ name: 'haul_db_pool_size', help: 'Connections to PostgreSQL this process keeps at most (HAUL_DATABASE_POOL_SIZE).', registers }).set(pool.size);
    new Gauge({
      name: 'haul_db_pool_connections',
      help: 'Open connections to PostgreSQL, by state.',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.set({ state: 'idle' }, pool.idle());
        this.set({ state: 'busy' }, pool.open() - pool.idle());
      },
    });
    new Gauge({ name: 'haul_db_pool_waiting', help: 'Queries waiting for a connection now.', registers, collect() { this.set(pool.waiting()); } });
    new Counter({ name: 'haul_db_pool_acquired_total', help: 'Connections handed to queries and transactions.', registers, collect() { this.reset(); this.inc(pool.acquired); } });
    new Counter({
      name: 'haul_db_pool_wait_seconds_total',
      help: 'Time spent getting a connection, all callers together (waiting for a busy pool, or opening a connection).',
      registers,
      collect() {
        this.reset();
        this.inc(pool.waitSeconds);
      },
    });
  }

  /** The text exposition format, and its content type. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /** Counts every answer, 404s and errors included, under its route pattern (never the raw URL, which holds ids). */
  installHttpHooks(app: FastifyInstance): void {
    const start = new WeakMap<FastifyRequest, { read: number; written: number }>();
    app.addHook('onRequest', async (req) => {
      const s = req.raw.socket;
      start.set(req, { read: num(s?.bytesRead), written: num(s?.bytesWritten) });
    });
    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
      const labels = { method: req.method, route, status: String(reply.statusCode) };
      this.requests.inc(labels);
      this.duration.observe(labels, reply.elapsedTime / 1000);
      const at = start.get(req);
      const s = req.raw.socket;
      if (!at || !s) return;
      // A body that arrived whole is its declared length; a chunked or cut-off one is what the socket read meanwhile
      // (which misses only what came in the same read as the headers).
      const declared = Number(req.headers['content-length']);
      const bodyIn = req.raw.complete && Number.isFinite(declared) ? declared : num(s.bytesRead) - at.read;
      const out = num(s.bytesWritten) - at.written;
      if (bodyIn > 0) this.received.inc({ route }, bodyIn);
      if (out > 0) this.sent.inc({ route }, out);
    });
  }
}

/**
 * Task kinds that wait, run or fail (a batch operation's task is recorded complete): `offline`, `decompress` and
 * `upload`. Naming them lets the counts seek the (type, phase, created_time) index instead of reading every task.
 */
const JOB_TASK_KINDS = ['offline', 'decompress', 'upload'];
/** Failed jobs are counted from the last day: they stay until their owners delete them, and counting them all grew with them. */
const FAILED_WINDOW_MS = 86_400_000;

/** One query per table (tasks, media transcodes): what waits and runs now, and what failed in the last day. */
async function countJobs(db: Db, now: number): Promise<{ kind: string; phase: string; n: number }[]> {
  const active = [PHASE.PENDING, PHASE.RUNNING];
  const since = now - FAILED_WINDOW_MS;
  const count = sql<number>`count(*)`.as('n');
  const [tasks, media] = await Promise.all([
    db
      .selectFrom('tasks')
      .select(['type as kind', 'phase', count])
      .where('type', 'in', JOB_TASK_KINDS)
      .where('phase', 'in', active)
      .groupBy(['type', 'phase'])
      .unionAll((eb) =>
        eb
          .selectFrom('tasks')
          .select(['type as kind', 'phase', count])
          .where('type', 'in', JOB_TASK_KINDS)
          .where('phase', '=', PHASE.ERROR)
          .where('created_time', '>', since)
          .groupBy(['type', 'phase']),
      )
      .execute(),
    db
      .selectFrom('media_jobs')
      .select(['phase', count])
      .where('phase', 'in', active)
      .groupBy('phase')
      .unionAll((eb) => eb.selectFrom('media_jobs').select(['phase', count]).where('phase', '=', PHASE.ERROR).where('created_time', '>', since).groupBy('phase'))
      .execute(),
  ]);
  return [...tasks, ...media.map((r) => ({ kind: 'transcode', phase: r.phase, n: r.n }))].map((r) => ({ ...r, n: Number(r.n) }));
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
