/**
 * Keyset paging of newest-first listings (tasks, events, shares, the audit log): ordered by a time column then id, both descending,
 * one row more than the page to know whether another follows, and a token naming the last row's (time, id).
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { decodeTimeCursor, encodePageToken } from '../lib/page-token.js';

export interface NewestFirst {
  /** The listing's name, bound into its tokens so one listing's token is refused by another. */
  listing: string;
  column: 'created_time' | 'updated_time' | 'created_at' | 'time';
  limit: number;
  pageToken?: string;
}

/** One page of `query` (already filtered) and the token of the next ('' on the last page). */
export async function newestFirstPage<DB, TB extends keyof DB, R extends { id: string; created_time?: number; updated_time?: number; created_at?: number; time?: number }>(
  query: SelectQueryBuilder<DB, TB, R>,
  page: NewestFirst,
): Promise<{ rows: R[]; nextPageToken: string }> {
  const time = sql.ref(page.column);
  let q = query;
  if (page.pageToken) {
    const [t, id] = decodeTimeCursor(page.pageToken, page.listing);
    q = q.where(sql<boolean>`(${time} < ${t} or (${time} = ${t} and ${sql.ref('id')} < ${id}))`);
  }
  const rows = await q.orderBy(time, 'desc').orderBy(sql.ref('id'), 'desc').limit(page.limit + 1).execute();
  const more = rows.length > page.limit;
  if (more) rows.pop();
  const last = rows.at(-1);
  return { rows, nextPageToken: more && last ? encodePageToken(page.listing, [last[page.column], last.id]) : '' };
}
