/**
 * The console's system health: storage in use, the processes alive, the effective configuration (secrets masked) and
 * the usage counts per day. Queues and their retries live in admin-jobs.service.ts.
 */
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { toRfc3339 } from '../lib/time.js';
import { dayOf } from '../lib/zoned-time.js';
import { listProcesses } from '../ops/heartbeat.js';
import { recentCounts } from '../stats/stat-counts.js';
import { maskedConfig } from './config-mask.js';

/**
 * One aggregate over `blobs` (a row per stored content, never per file): counts, bytes, references and what awaits
 * its purge. On 100k blobs this reads in tens of milliseconds (docs/decisions/console-health.md); the file rows,
 * which may be many times more, are not read.
 */
export async function storageStatus(ctx: AppContext) {
  const row = await ctx.db
    .selectFrom('blobs')
    .select([
      sql<string>`count(*)`.as('blob_count'),
      sql<string>`coalesce(sum(size), 0)`.as('blob_bytes'),
      sql<string>`coalesce(sum(case when ref_count > 0 then ref_count else 0 end), 0)`.as('reference_count'),
      sql<string>`coalesce(sum(case when ref_count > 0 then size * ref_count else 0 end), 0)`.as('referenced_bytes'),
      sql<string>`coalesce(sum(case when ref_count <= 0 then 1 else 0 end), 0)`.as('unreferenced_count'),
      sql<string>`coalesce(sum(case when ref_count <= 0 then size else 0 end), 0)`.as('unreferenced_bytes'),
    ])
    .executeTakeFirstOrThrow();
  const disk = ctx.config.blobStore === 'local' ? await diskOf(join(ctx.config.dataDir, 'blobs'), ctx.config.dataDir) : null;
  const text = (v: unknown) => BigInt(String(v ?? 0).split('.')[0] || '0').toString();
  return {
    blob_count: text(row.blob_count),
    blob_bytes: text(row.blob_bytes),
    reference_count: text(row.reference_count),
    referenced_bytes: text(row.referenced_bytes),
    unreferenced_count: text(row.unreferenced_count),
    unreferenced_bytes: text(row.unreferenced_bytes),
    store: ctx.config.blobStore,
    disk_free_bytes: disk ? String(disk.free) : null,
    disk_total_bytes: disk ? String(disk.total) : null,
  };
}

/** Free and total bytes of the disk holding `path` (the data folder when the blob folder is not made yet). */
async function diskOf(path: string, fallback: string): Promise<{ free: number; total: number } | null> {
  for (const p of [path, fallback]) {
    try {
      const s = await statfs(p);
      // bavail: what an unprivileged process may still write (bfree counts the blocks kept for root).
      return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
    } catch {
      // not there (yet): try the next
    }
  }
  return null;
}

/** The processes that sent a heartbeat within the last day. */
export async function processesStatus(ctx: AppContext) {
  const rows = await listProcesses(ctx.db, ctx.clock.now());
  return {
    processes: rows.map((r) => ({
      id: r.id,
      role: r.role as 'all' | 'serve' | 'worker',
      version: r.version,
      host: r.host,
      pid: r.pid,
      started_time: toRfc3339(r.started_at),
      seen_time: toRfc3339(r.seen_at),
      alive: r.alive,
    })),
  };
}

/** ctx.config as this process runs it (run-time settings laid over the environment), secrets masked. */
export function configStatus(ctx: AppContext) {
  return { entries: maskedConfig(ctx.config) };
}

/** Usage counts of the last `days` days in the operator's zone: every day of the span, the names counted, the counts. */
export async function statsStatus(ctx: AppContext, days: number) {
  const now = ctx.clock.now();
  const zone = ctx.config.timeZone;
  const keys: string[] = [];
  // Day by day backwards from today's noon, so a day of 23 or 25 hours is neither skipped nor counted twice.
  let at = dayOf(now, zone).startsAt + 12 * 3_600_000;
  while (keys.length < days) {
    const key = dayOf(at, zone).key;
    if (keys[0] !== key) keys.unshift(key);
    at -= 86_400_000;
  }
  const counts = (await recentCounts(ctx.db, now, zone, days)).filter((c) => c.day >= keys[0]!);
  return { days: keys, events: [...new Set(counts.map((c) => c.event))].sort(), counts };
}
