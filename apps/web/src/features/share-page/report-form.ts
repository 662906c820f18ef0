/** What the report form sends: the share, the token a pass code earned, the reason, and the item and words when given. */
import { REPORT_MESSAGE_MAX } from '@haul/shared/plain';
import type { ReportReason } from '@haul/shared';

export interface ReportDraft {
  shareId: string;
  /** The pass code's token of an encrypted link ('' for a public one). */
  token: string;
  /** The item the visitor is looking at ('' for the share as a whole). */
  fileId: string;
  reason: ReportReason | '';
  message: string;
}

export type ReportBody = {
  share_id: string;
  reason: ReportReason;
  pass_code_token?: string;
  file_id?: string;
  message?: string;
};

/** Why the draft cannot be sent yet (`reason`: none picked; `long`: over the limit), or null. */
export function reportProblem(d: ReportDraft): 'reason' | 'long' | null {
  if (!d.reason) return 'reason';
  return d.message.trim().length > REPORT_MESSAGE_MAX ? 'long' : null;
}

/** The request body: empty values left out, so the server sees only what the visitor gave. */
export function reportBody(d: ReportDraft & { reason: ReportReason }): ReportBody {
  const message = d.message.trim();
  return {
    share_id: d.shareId,
    reason: d.reason,
    ...(d.token ? { pass_code_token: d.token } : {}),
    ...(d.fileId ? { file_id: d.fileId } : {}),
    ...(message ? { message } : {}),
  };
}
