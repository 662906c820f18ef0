/** Tables of share links: a share and the files it holds, in the owner's order (see the 0005, 0025 and 0039 migrations). */
import type { Generated } from 'kysely';

export interface SharesTable {
  /** 20 lowercase letters and digits: it is the last segment of the share link. */
  id: string;
  user_id: string;
  /** publiclink or encryptedlink. */
  kind: string;
  /** '' for a public link. Kept readable: the owner copies it again from the share list. */
  pass_code: string;
  title: string;
  file_kind: string;
  /** Bytes of the shared files (folders counted with what was in them when shared). */
  file_size: number;
  file_count: number;
  /** 1, 7, 14, 30, or -1 for never. */
  expiration_days: number;
  expires_at: number | null;
  /**
   * OK; DELETED once the owner cancelled it (kept so visitors learn why the link stopped); AUDITING, PROHIBITED or
   * SENSITIVE_RESOURCE while an operator holds it (0039).
   */
  status: string;
  /** Saves allowed, 0 for no limit (0039). */
  restore_limit: Generated<number>;
  /** Why an operator holds the share: shown to its owner (0039). */
  moderation_reason: Generated<string>;
  /** Words a person can type to find the share (lower case, single spaces); null when none. See the 0025 migration. */
  phrase: string | null;
  view_count: number;
  restore_count: number;
  created_time: number;
  updated_time: number;
}

export interface ShareFilesTable {
  share_id: string;
  file_id: string;
  /** Order of the items as the owner chose them. */
  position: number;
}
