/** Audit rows → the wire event; operators' addresses are looked up once per page. */
import type { AuditAction, AuditEventSchema, Static } from '@haul/shared';
import type { Db } from '../db/database.js';
import { toRfc3339 } from '../lib/time.js';
import type { AuditRow } from './audit.repository.js';

type AuditEvent = Static<typeof AuditEventSchema>;

/**
 * The page's events, each account named by address (one query for the page): the account it happened to, and an
 * actor other than that account (an operator).
 */
export async function presentAudit(db: Db, rows: AuditRow[]): Promise<AuditEvent[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.subject_id, r.actor_id]).filter(Boolean))];
  const emails = new Map(ids.length ? (await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).where('deleted_at', 'is', null).execute()).map((u) => [u.id, u.email]) : []);
  return rows.map((r) => ({
    id: r.id,
    time: toRfc3339(r.time),
    action: r.action as AuditAction,
    user_id: r.subject_id,
    user_email: emails.get(r.subject_id) ?? '',
    actor_id: r.actor_id,
    actor_email: r.actor_id !== r.subject_id ? (emails.get(r.actor_id) ?? '') : '',
    ip: r.ip,
    details: parseDetails(r.details),
  }));
}

function parseDetails(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
