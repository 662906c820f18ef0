/**
 * Applying and taking back what plans grant. Premium time chains: a new grant starts where premium now ends, and
 * `users.premium_expire` holds the end of the chain, so "is premium" stays one column read everywhere. Storage and
 * transfer grants count while their window holds. Taking a grant back (a refund, a chargeback) removes what is left of
 * it and pulls the premium time granted after it forward, so no gap opens in the chain.
 */
import { grantDurationMs, parseGrantSpec, type GrantKind } from '@haul/shared';
import type { Db } from '../db/database.js';
import { newId } from '../lib/ids.js';

export type GrantSource = 'order' | 'code' | 'invite' | 'admin' | 'trial';

export interface GrantRef {
  source: GrantSource;
  sourceId: string;
}

/** Applies a grant spec to an account inside the caller's transaction. */
export async function applyGrant(trx: Db, userId: string, spec: string, ref: GrantRef, now: number): Promise<void> {
  for (const part of parseGrantSpec(spec)) {
    const duration = grantDurationMs(part);
    if (part.kind === 'premium') {
      const user = await trx.selectFrom('users').select('premium_expire').where('id', '=', userId).executeTakeFirstOrThrow();
      const starts = Math.max(now, user.premium_expire ?? 0);
      const ends = starts + duration!;
      await insertGrant(trx, userId, 'premium', duration!, starts, ends, ref, now);
      await trx.updateTable('users').set({ premium_expire: ends }).where('id', '=', userId).execute();
    } else {
      await insertGrant(trx, userId, part.kind, part.bytes, now, duration === null ? null : now + duration, ref, now);
    }
  }
}

function insertGrant(trx: Db, userId: string, kind: GrantKind, amount: number, starts: number, ends: number | null, ref: GrantRef, now: number) {
  return trx
    .insertInto('plan_grants')
    .values({ id: newId(), user_id: userId, kind, amount, starts_at: starts, ends_at: ends, source: ref.source, source_id: ref.sourceId, created_at: now, revoked_at: null })
    .execute();
}

/** Takes back every grant made from one source (an order refunded); answers how many were live. */
export async function revokeGrants(trx: Db, ref: GrantRef, now: number): Promise<number> {
  const grants = await trx
    .selectFrom('plan_grants')
    .selectAll()
    .where('source', '=', ref.source)
    .where('source_id', '=', ref.sourceId)
    .where('revoked_at', 'is', null)
    .execute();
  for (const g of grants) {
    await trx.updateTable('plan_grants').set({ revoked_at: now }).where('id', '=', g.id).execute();
    if (g.kind !== 'premium' || g.ends_at === null || g.ends_at <= now) continue;
    // The unused part of this premium grant; what was chained after it moves forward by as much.
    const unused = g.ends_at - Math.max(g.starts_at, now);
    await trx
      .updateTable('plan_grants')
      .set((eb) => ({ starts_at: eb('starts_at', '-', unused), ends_at: eb('ends_at', '-', unused) }))
      .where('user_id', '=', g.user_id)
      .where('kind', '=', 'premium')
      .where('revoked_at', 'is', null)
      .where('starts_at', '>=', g.ends_at)
      .execute();
    const user = await trx.selectFrom('users').select('premium_expire').where('id', '=', g.user_id).executeTakeFirstOrThrow();
    if (user.premium_expire !== null) {
      const end = user.premium_expire - unused;
      await trx.updateTable('users').set({ premium_expire: end > now ? end : now }).where('id', '=', g.user_id).execute();
    }
  }
  return grants.length;
}

/** Bytes of live grants of a kind: storage added to the limit, transfer added to this month's allowances. */
export async function grantedBytes(db: Db, userId: string, kind: 'storage' | 'transfer', now: number): Promise<number> {
  const row = await db
    .selectFrom('plan_grants')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('revoked_at', 'is', null)
    .where('starts_at', '<=', now)
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
