/** Reports of shares (migration 0042, shares/share-reports.service.ts). */
export interface ShareReportsTable {
  id: string;
  share_id: string;
  /** The share's owner when it was reported: their erasure takes the report along. */
  owner_id: string;
  /** The item the visitor was looking at ('' for the share as a whole). */
  file_id: string;
  /** One of REPORT_REASONS. */
  reason: string;
  message: string;
  /** The reporter's account when signed in ('' for a visitor who was not, or once that account is gone). */
  reporter_id: string;
  /** open, resolved or dismissed. */
  status: string;
  /** The operator's note when handling it. */
  note: string;
  /** The operator's account that handled it ('' while open). */
  handled_by: string;
  handled_at: number | null;
  created_at: number;
}
