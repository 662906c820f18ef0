/** The audit log's table (migration 0038), and the operator's blocked words (0039). */
export interface AuditEventsTable {
  id: string;
  /** Epoch ms. */
  time: number;
  /** What happened: `password.changed`, `admin.user.updated`… (audit/audit-actions.ts). */
  action: string;
  /** The account it happened to. */
  subject_id: string;
  /** Who did it: the account itself, an operator's account, or '' for the system (haul-admin, a job). */
  actor_id: string;
  /** The actor's network ('' when none: haul-admin, a job). */
  ip: string;
  /** JSON of what changed (never a secret). */
  details: string;
}

export interface BlockedWordsTable {
  /** Lower case. */
  word: string;
  created_at: number;
}
