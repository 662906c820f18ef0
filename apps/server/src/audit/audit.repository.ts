/** The audit log's rows: recorded by the code that makes each change, read by account and by time. */
import type { AuditAction } from '@haul/shared';
import type { Db } from '../db/database.js';
import { newestFirstPage } from '../db/newest-first.js';
import type { AuditEventsTable } from '../db/schema-audit.js';
import { newId } from '../lib/ids.js';

export type AuditRow = AuditEventsTable;

export interface AuditEntry {
  action: AuditAction;
  /** The account it happened to. */
  subjectId: string;
  /** Who did it ('' for the server itself: haul-admin, a job); the subject itself unless said. */
  actorId?: string;
  ip?: string;
  /** What changed; never a secret (no password, code, token or key). */
  details?: Record<string, unknown>;
}

/** Records one event; inside the caller's transaction when `db` is one, so it lands with the change or not at all. */
export async function recordAudit(db: Db, e: AuditEntry, now: number): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({ id: newId(), time: now, action: e.action, subject_id: e.subjectId, actor_id: e.actorId ?? e.subjectId, ip: e.ip ?? '', details: JSON.stringify(e.details ?? {}) })
    .execute();
}

/** A page of events, newest first: of one account (`subjectId`) or all, of one action or all. */
export function listAudit(db: Db, q: { subjectId?: string; action?: string; limit: number; pageToken?: string }): Promise<{ rows: AuditRow[]; nextPageToken: string }> {
  let query = db.selectFrom('audit_events').selectAll();
  if (q.subjectId) query = query.where('subject_id', '=', q.subjectId);
  if (q.action) query = query.where('action', '=', q.action);
  return newestFirstPage(query, { listing: 'audit', column: 'time', limit: q.limit, pageToken: q.pageToken });
}

/** Forgets events older than `before` (epoch ms); returns how many went. */
export async function purgeAudit(db: Db, before: number): Promise<number> {
  const r = await db.deleteFrom('audit_events').where('time', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
