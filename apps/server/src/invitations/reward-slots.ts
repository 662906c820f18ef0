/**
 * Counters that cap invitation rewards (table invite_reward_counts): taking a slot is one conditional UPDATE
 * (`count < limit`). PostgreSQL re-checks the condition against a row a concurrent sign-up just changed and SQLite has
 * one writer, so sign-ups racing with one code can never together pass a cap. Nothing ever gives a slot back but the
 * transaction that took it: a deleted account's rewards stay counted.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

export interface SlotKey {
  /** u:<inviter id> or a:<hash of a sign-up address>. */
  scope: string;
  /** A month (2026-11) or a day (2026-11-29) in the operator's zone. */
  period: string;
}

/** Takes one slot unless `limit` are taken (limit 0: no cap); answers whether it was taken. Inside the caller's transaction. */
export async function takeSlot(trx: Db, key: SlotKey, limit: number): Promise<boolean> {
  await trx
    .insertInto('invite_reward_counts')
    .values({ scope: key.scope, period: key.period, count: 0 })
    .onConflict((oc) => oc.columns(['scope', 'period']).doNothing())
    .execute();
  let q = trx
    .updateTable('invite_reward_counts')
    .set((eb) => ({ count: eb('count', '+', 1) }))
    .where('scope', '=', key.scope)
    .where('period', '=', key.period);
  if (limit > 0) q = q.where(sql<boolean>`count < ${limit}`);
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Gives back a slot this transaction took and could not use (the other cap said no). */
export async function giveBackSlot(trx: Db, key: SlotKey): Promise<void> {
  await trx
    .updateTable('invite_reward_counts')
    .set({ count: sql<number>`CASE WHEN count > 0 THEN count - 1 ELSE 0 END` })
    .where('scope', '=', key.scope)
    .where('period', '=', key.period)
    .execute();
}

/** Slots taken in a period (0 when none were). */
export async function slotsTaken(db: Db, key: SlotKey): Promise<number> {
  const row = await db.selectFrom('invite_reward_counts').select('count').where('scope', '=', key.scope).where('period', '=', key.period).executeTakeFirst();
  return row ? Number(row.count) : 0;
}
