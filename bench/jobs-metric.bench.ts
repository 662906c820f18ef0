/**
 * The `/metrics` job count (`haul_jobs`, ops/metrics.ts) with many failed tasks kept, on SQLite and PostgreSQL:
 * HAUL_BENCH_FAILED_TASKS (50,000) failed a month ago, 100 finished and 20 failed today. Every scraped process runs
 * the count at each scrape, and failed tasks stay until their owners delete them. Prints the scrape's p50 beside the
 * reference, the count as it was before (every task by type and phase, every failure kept), and their ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { PHASE } from '@haul/shared';
import { openDatabase } from '../apps/server/src/db/database.js';
import { HaulMetrics } from '../apps/server/src/ops/metrics.js';
import { ms, onBothDatabases, p50 } from './fixtures.js';

const FAILED = Number(process.env.HAUL_BENCH_FAILED_TASKS ?? 50_000);
const ROUNDS = 30;
const DAY = 86_400_000;
const silent = { warn() {} } as never;

async function run(label: string, databaseUrl: string | null) {
  const dataDir = mkdtempSync(join(tmpdir(), 'haul-bench-jobs-'));
  const { db } = await openDatabase({ databaseUrl, dataDir, poolSize: 4 } as never);
  try {
    await db
      .insertInto('users')
      .values({ id: 'u1', email: 'jobs@example.com', name: 'jobs', password_hash: '', is_admin: 0, storage_limit: 0, created_at: 0, password_updated_at: 0 } as never)
      .execute();
    const now = Date.now();
    const task = (i: number, phase: string, at: number) =>
      ({ id: `t${i}`, user_id: 'u1', type: 'offline', phase, name: 'x.iso', progress: 0, message: '', params: '{}', created_time: at, updated_time: at }) as never;
    const rows = [
      ...Array.from({ length: FAILED }, (_, i) => task(i, PHASE.ERROR, now - 30 * DAY + i)),
      ...Array.from({ length: 100 }, (_, i) => task(FAILED + i, PHASE.COMPLETE, now - i)),
      ...Array.from({ length: 20 }, (_, i) => task(FAILED + 100 + i, PHASE.ERROR, now - i)),
    ];
    for (let i = 0; i < rows.length; i += 1000) await db.insertInto('tasks').values(rows.slice(i, i + 1000)).execute();
    if (databaseUrl) await sql`analyze tasks`.execute(db);

    const metrics = new HaulMetrics(db, silent);
    const scrape = () => metrics.registry.getSingleMetricAsString('haul_jobs');
    const failedNow = /kind="offline",state="failed"\} (\d+)/.exec(await scrape())?.[1];
    const ours = await p50(ROUNDS, scrape, false);
    const phases = [PHASE.PENDING, PHASE.RUNNING, PHASE.ERROR];
    const before = () =>
      db.selectFrom('tasks').select(['type', 'phase', sql<number>`count(*)`.as('n')]).where('phase', 'in', phases).groupBy(['type', 'phase']).execute();
    const reference = await p50(ROUNDS, before, false);
    console.log(
      `${label}: haul_jobs scrape p50 ${ms(ours)} (failed reported: ${failedNow}) | the whole count ${ms(reference)} | ` +
        `${(ours / reference).toFixed(3)}x, with ${FAILED.toLocaleString('en')} failed a month ago`,
    );
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await onBothDatabases(run);
