/**
 * Each process says it is alive: one row in `process_heartbeats` (migration 0041), upserted at start and every 30 s,
 * removed on a graceful stop. A row not seen for 2 minutes is a process that is gone (killed, or its machine lost);
 * every beat also purges rows not seen for a day, so a killed process leaves its row a day at most.
 */
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { haulVersion } from '../backup/manifest.js';
import { newId } from '../lib/ids.js';
import type { Role } from '../roles.js';

export const HEARTBEAT_EVERY_MS = 30_000;
/** Four missed beats: gone. */
export const GONE_AFTER_MS = 120_000;
export const PURGE_AFTER_MS = 86_400_000;

export interface Heartbeat {
  /** This process's row id. */
  readonly id: string;
  /** Stops beating and removes the row (a graceful stop). */
  stop(): Promise<void>;
}

/** Starts beating for this process in `role`; a failed beat is logged and the next one tries again. */
export function startHeartbeat(ctx: Pick<AppContext, 'db' | 'clock'>, role: Role, log: FastifyBaseLogger): Heartbeat {
  const id = newId();
  const startedAt = ctx.clock.now();
  const row = { id, role, version: haulVersion() ?? '', host: hostname(), pid: process.pid, started_at: startedAt };
  let inFlight: Promise<void> = Promise.resolve();
  let stopped = false;
  const beat = () => {
    if (stopped) return;
    inFlight = writeBeat(ctx.db, row, ctx.clock.now()).catch((err: unknown) => log.warn({ err }, 'heartbeat not written; the next one tries again'));
  };
  beat();
  const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
  timer.unref();
  return {
    id,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await ctx.db
        .deleteFrom('process_heartbeats')
        .where('id', '=', id)
        .execute()
        .catch((err: unknown) => log.warn({ err }, 'heartbeat row not removed; it shows as gone after 2 minutes'));
    },
  };
}

async function writeBeat(db: Db, row: { id: string; role: string; version: string; host: string; pid: number; started_at: number }, now: number): Promise<void> {
  await db
    .insertInto('process_heartbeats')
    .values({ ...row, seen_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now }))
    .execute();
  await db.deleteFrom('process_heartbeats').where('seen_at', '<', now - PURGE_AFTER_MS).execute();
}

/** Every process seen within the last day, newest start first, with whether it is still alive. */
export async function listProcesses(db: Db, now: number) {
  const rows = await db.selectFrom('process_heartbeats').selectAll().where('seen_at', '>=', now - PURGE_AFTER_MS).orderBy('started_at', 'desc').execute();
  return rows.map((r) => ({ ...r, started_at: Number(r.started_at), seen_at: Number(r.seen_at), pid: Number(r.pid), alive: now - Number(r.seen_at) <= GONE_AFTER_MS }));
}
