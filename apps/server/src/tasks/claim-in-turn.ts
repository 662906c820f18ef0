/**
 * The claim every queue of background work shares (tasks of a type, transcode jobs): read which accounts wait, how
 * many of theirs run and when each was last served, pick whose turn it is (turns.ts), and take that account's oldest
 * waiting row by a conditional update, so of processes racing for one row exactly one gets it; a lost race looks again.
 */
import type { ExpressionBuilder, Selectable, UpdateObject } from 'kysely';
import { PHASE } from '@haul/shared';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { nextTurn } from './turns.js';

/** Tries at a claim that another process won first before giving up until the next look. */
const CLAIM_LOOKS = 5;
/** The accounts with waiting rows weighed at each claim, those waiting longest (bounds the look on a busy site). */
const MAX_ACCOUNTS_LOOKED_AT = 500;

type Table = 'tasks' | 'media_jobs';

export interface TurnQueue<T extends Table> {
  table: T;
  /** The row's key column. */
  key: T extends 'tasks' ? 'id' : 'hash';
  /** For `tasks`: the kind of task. */
  type?: string;
  /** Most rows one account may have running. */
  cap: number;
  /** What a claim writes besides the phase and `claimed_time`. */
  set: (eb: ExpressionBuilder<Database, T>) => UpdateObject<Database, T>;
}

/** The row claimed for the account whose turn it is, or undefined when nothing waits (or every waiter is at its cap). */
export async function claimInTurn<T extends Table>(db: Db, queue: TurnQueue<T>, now: number): Promise<Selectable<Database[T]> | undefined> {
  // One shape for both tables: Kysely cannot type a query over a union of tables (as account-erasure.ts does).
  const q = queue as unknown as TurnQueue<'tasks'>;
  const table = q.table;
  const ofType = <B extends { where(...a: unknown[]): B }>(b: B): B => (q.type === undefined ? b : b.where('type', '=', q.type));
  for (let look = 0; look < CLAIM_LOOKS; look++) {
    const waiting = await ofType(db.selectFrom(table).select(['user_id', (eb) => eb.fn.min('created_time').as('oldest')]).where('phase', '=', PHASE.PENDING))
      .groupBy('user_id')
      .orderBy('oldest')
      .limit(MAX_ACCOUNTS_LOOKED_AT)
      .execute();
    if (!waiting.length) return undefined;
    const users = waiting.map((w) => w.user_id);
    const [running, served] = await Promise.all([
      ofType(db.selectFrom(table).select(['user_id', (eb) => eb.fn.countAll<number>().as('n')]).where('phase', '=', PHASE.RUNNING).where('user_id', 'in', users)).groupBy('user_id').execute(),
      ofType(db.selectFrom(table).select(['user_id', (eb) => eb.fn.max('claimed_time').as('last')]).where('user_id', 'in', users)).groupBy('user_id').execute(),
    ]);
    const runningOf = new Map(running.map((r) => [r.user_id, Number(r.n)]));
    const servedAt = new Map(served.map((r) => [r.user_id, r.last === null ? null : Number(r.last)]));
    const turn = nextTurn(
      waiting.map((w) => ({ userId: w.user_id, oldest: Number(w.oldest), running: runningOf.get(w.user_id) ?? 0, lastClaimed: servedAt.get(w.user_id) ?? null })),
      q.cap,
    );
    if (turn === null) return undefined;
    const row = await db
      .updateTable(table)
      .set((eb) => ({ ...q.set(eb), phase: PHASE.RUNNING, claimed_time: now }))
      .where(q.key, '=', (eb) => ofType(eb.selectFrom(table).select(q.key).where('phase', '=', PHASE.PENDING).where('user_id', '=', turn)).orderBy('created_time').limit(1))
      .where('phase', '=', PHASE.PENDING)
      .returningAll()
      .executeTakeFirst();
    if (row) return row as unknown as Selectable<Database[T]>;
  }
  return undefined;
}
