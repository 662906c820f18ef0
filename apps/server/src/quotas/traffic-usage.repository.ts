/**
 * Counters of what accounts moved per quota period (table traffic_usage). A charge is one conditional UPDATE
 * (`amount + n <= limit`): PostgreSQL re-checks the condition against a row a concurrent charge just changed, and
 * SQLite has one writer, so charges in any number of processes can never together pass a limit.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** upload, offline (cloud download) and download count bytes; offline_tasks counts created cloud downloads. */
export type UsageKind = 'upload' | 'offline' | 'download' | 'offline_tasks';

export interface UsageKey {
  userId: string;
  kind: UsageKind;
  /** 2026-11 (a month) or 2026-11-29 (a day), in the operator's zone. */
  period: string;
}

/** The amount counted so far (0 when nothing was). */
export async function readUsage(db: Db, key: UsageKey): Promise<number> {
  const row = await usageRow(db, key);
  return row ? Number(row.amount) : 0;
}

const usageRow = (db: Db, key: UsageKey) =>
  db.selectFrom('traffic_usage').select('amount').where('user_id', '=', key.userId).where('kind', '=', key.kind).where('period', '=', key.period).executeTakeFirst();

/**
 * Adds `amount` unless the total would pass `limit` (null: no limit, always added); answers whether it was added.
 * A period's row starts from `seed()` (what was moved before these counters existed), inserted or left alone.
 */
export async function tryCharge(db: Db, key: UsageKey, amount: number, limit: number | null, seed: () => Promise<number>): Promise<boolean> {
  const exists = await usageRow(db, key);
  if (!exists) {
    await db
      .insertInto('traffic_usage')
      .values({ user_id: key.userId, kind: key.kind, period: key.period, amount: await seed() })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'period']).doNothing())
      .execute();
  }
  let q = db
    .updateTable('traffic_usage')
    .set((eb) => ({ amount: eb('amount', '+', amount) }))
    .where('user_id', '=', key.userId)
    .where('kind', '=', key.kind)
    .where('period', '=', key.period);
  if (limit !== null) q = q.where(sql<boolean>`amount + ${amount} <= ${limit}`);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Gives back what a charge took and did not use (never below zero; nothing when the period was never counted). */
export async function release(db: Db, key: UsageKey, amount: number): Promise<void> {
  if (amount <= 0) return;
  await db
    .updateTable('traffic_usage')
    .set({ amount: sql<number>`CASE WHEN amount > ${amount} THEN amount - ${amount} ELSE 0 END` })
    .where('user_id', '=', key.userId)
    .where('kind', '=', key.kind)
    .where('period', '=', key.period)
    .execute();
}
