/** Reports of shares to the operator: the reasons a visitor picks, the queue's statuses and the note's length. */

/** Why a visitor reports a share (the form's choices, in this order). */
export const REPORT_REASONS = ['copyright', 'sexual', 'violence', 'illegal', 'spam', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** open: waiting for the operator; resolved: acted on (the share held); dismissed: nothing wrong found. */
export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Characters a visitor's words (and the operator's note) may hold. */
export const REPORT_MESSAGE_MAX = 1000;

/** Share ids named by share links (`…/s/{id}`) in a text, each once: a feedback message that reports a share. */
export function sharesNamedIn(text: string): string[] {
  const ids = [...text.matchAll(/\/s\/([A-Za-z0-9_-]{6,64})/g)].map((m) => m[1]!);
  return [...new Set(ids)];
}
