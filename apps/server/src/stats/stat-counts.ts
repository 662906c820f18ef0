/** Usage statistics: counts per day (the operator's time zone) and event name, added to in one statement each. */
import type { StatEvent } from '@haul/shared';
import type { Db } from '../db/database.js';
import { dayOf } from '../lib/zoned-time.js';

export async function countEvents(db: Db, entries: { event: StatEvent; count?: number }[], now: number, zone: string): Promise<number> {
  const day = dayOf(now, zone).key;
  const sums = new Map<string, number>();
  for (const e of entries) sums.set(e.event, (sums.get(e.event) ?? 0) + (e.count ?? 1));
  for (const [event, count] of sums) {
    await db
      .insertInto('stat_counts')
      .values({ day, event, count })
      .onConflict((oc) => oc.columns(['day', 'event']).doUpdateSet((eb) => ({ count: eb('stat_counts.count', '+', eb.ref('excluded.count')) })))
      .execute();
  }
  return [...sums.values()].reduce((a, b) => a + b, 0);
}

/** The counts of the last `days` days, newest day first. */
export async function recentCounts(db: Db, now: number, zone: string, days: number) {
  const from = dayOf(now - (days - 1) * 86_400_000, zone).key;
  const rows = await db.selectFrom('stat_counts').selectAll().where('day', '>=', from).orderBy('day', 'desc').orderBy('event').execute();
  return rows.map((r) => ({ day: r.day, event: r.event, count: Number(r.count) }));
}
