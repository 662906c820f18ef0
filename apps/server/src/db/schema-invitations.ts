/** Tables of invitations: see the 0019 migration. */

export interface InviteCodesTable {
  user_id: string;
  code: string;
  created_at: number;
}

/** Who signed up with whose code; kept when either account is deleted, so it still counts. */
export interface InvitationsTable {
  id: string;
  inviter_id: string;
  invitee_id: string;
  /** The invited address masked (an***@example.com): what the inviter is shown. */
  invitee_label: string;
  invitee_email_hash: string;
  created_at: number;
  reward_days: number;
  rewarded_at: number | null;
  /** '' when rewarded; else why not (InviteRewardReason). */
  unrewarded_reason: string;
}

export interface InviteRewardCountsTable {
  scope: string;
  period: string;
  count: number;
}
