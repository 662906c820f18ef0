/**
 * Reports of shares (seed 000 §3's moderation statuses, decided here): a share's visitor, signed in or not, tells
 * the operator what is wrong with it; the operator reads the queue in the console and either holds the share
 * (AUDITING, PROHIBITED, SENSITIVE_RESOURCE, with a reason its owner reads) or dismisses the report.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';
import { DecimalString, StringEnum, TimeString } from './schema-kit.js';
import { REPORT_MESSAGE_MAX, REPORT_REASONS, REPORT_STATUSES } from '../rules/share-reports.js';

export * from '../rules/share-reports.js';

const tag = 'Share reports';
const HOLDS = ['AUDITING', 'PROHIBITED', 'SENSITIVE_RESOURCE'] as const;

/** One report as the operator sees it, with the share it is about. */
export const ShareReportSchema = Type.Object({
  id: Type.String(),
  share_id: Type.String(),
  share_title: Type.String({ description: "The share's title ('' once the share is gone)." }),
  share_status: Type.String({ description: "The share's status now (OK, AUDITING, PROHIBITED, …; DELETED once it is gone)." }),
  owner_id: Type.String(),
  owner_email: Type.String({ description: "The share owner's address ('' once the account is gone)." }),
  file_id: Type.String({ description: "The item the visitor was looking at ('' for the share as a whole)." }),
  file_name: Type.String({ description: "That item's name ('' when none, or once it is gone)." }),
  file_sensitive: Type.Boolean({ description: 'Whether that item is marked not shareable now (false when there is none).' }),
  reason: StringEnum(REPORT_REASONS),
  message: Type.String({ description: "The visitor's words ('' when none)." }),
  reporter_email: Type.String({ description: "The reporter's address when they were signed in ('' for a visitor who was not)." }),
  status: StringEnum(REPORT_STATUSES),
  note: Type.String({ description: "The operator's note when they handled it ('' before)." }),
  handled_time: TimeString("When it was handled ('' while open)."),
  created_time: TimeString(),
  open_reports: DecimalString("Open reports of the same share, this one included (0 when it is handled)."),
});

const Page = { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })), page_token: Type.Optional(Type.String({ maxLength: 2000 })) };

export const shareReportRoutes = {
  reportShare: route({
    method: 'POST',
    path: '/drive/v1/share/report',
    tag,
    summary: 'Report a share',
    description: `Tells the operator what is wrong with a share: a reason, optionally the item it is about and up to ${REPORT_MESSAGE_MAX} characters. Anyone who can open the share may report it (an encrypted link needs the pass_code_token GET share answered); signed in or not. At most 10 reports an hour from one network. Answers the report's id.`,
    auth: 'public',
    body: Type.Object({
      share_id: Type.String({ minLength: 1, maxLength: 64 }),
      pass_code_token: Type.Optional(Type.String({ maxLength: 200 })),
      reason: StringEnum(REPORT_REASONS),
      file_id: Type.Optional(Type.String({ maxLength: 100, description: 'An item of the share (or inside a shared folder) the report is about.' })),
      message: Type.Optional(Type.String({ maxLength: REPORT_MESSAGE_MAX })),
    }),
    response: Type.Object({ id: Type.String() }),
    errors: {
      permission_denied: 'The share is not open to the caller (details[0].share_status says why).',
      file_not_found: 'file_id names nothing in this share.',
      too_many_requests: 'Too many reports from this network in the last hour; the description says how long to wait.',
    },
    example: { share_id: 'k3jwqx2dp9vn8st1ayb7', reason: 'copyright', message: 'This is my film, shared without my consent.' },
  }),
  adminListReports: route({
    method: 'GET',
    path: '/admin/v1/reports',
    tag,
    summary: 'Reports',
    description: 'Reports of shares, newest first, page by page; of one status when given (the queue is `open`). `open_count` counts every open report.',
    auth: 'admin',
    query: Type.Object({ status: Type.Optional(StringEnum(REPORT_STATUSES)), ...Page }),
    response: Type.Object({ reports: Type.Array(ShareReportSchema), next_page_token: Type.String(), open_count: DecimalString() }),
    errors: {},
  }),
  adminMarkFile: route({
    method: 'PATCH',
    path: '/admin/v1/files/:id',
    tag,
    summary: 'Mark a file not shareable, or give it back',
    description:
      "`sensitive` true marks a person's file (a folder: everything in it stays as it is) not shareable, with a reason: the shares holding it answer SENSITIVE_RESOURCE at their visitors' next request (a shared folder hides it), and it cannot be shared again; false gives it back. The owner reads the reason in their security log. Metadata only: the console never reads the file.",
    auth: 'admin',
    params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
    body: Type.Object({ sensitive: Type.Boolean(), reason: Type.Optional(Type.String({ maxLength: 500 })) }),
    response: Type.Object({ file_id: Type.String(), name: Type.String(), user_id: Type.String(), sensitive: Type.Boolean() }),
    errors: { file_not_found: 'No file has that id.', invalid_argument: 'Marking without a reason.' },
    example: { sensitive: true, reason: 'Reported: shared without the rights holder\'s consent.' },
  }),
  adminHandleReport: route({
    method: 'POST',
    path: '/admin/v1/reports/:id',
    tag,
    summary: 'Handle a report',
    description:
      "`resolved` with `hold` holds the report's share at once (as the share's own call does: its owner reads `reason`) and closes every open report of that share; `resolved` alone closes them (the share was seen to otherwise); `dismissed` closes them with nothing done. `open` reopens this one. Recorded in the audit log.",
    auth: 'admin',
    params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
    body: Type.Object({
      status: StringEnum(REPORT_STATUSES),
      hold: Type.Optional(StringEnum(HOLDS, { description: 'With resolved: the status the share is held in.' })),
      reason: Type.Optional(Type.String({ maxLength: 500, description: "With hold: the reason the share's owner reads." })),
      note: Type.Optional(Type.String({ maxLength: REPORT_MESSAGE_MAX, description: "The operator's own note, kept with the report." })),
      mark_file: Type.Optional(Type.Boolean({ description: "With resolved, on a report naming an item: mark that file not shareable (as PATCH /admin/v1/files/:id does), with `reason`." })),
    }),
    response: Type.Object({ report: ShareReportSchema, closed: DecimalString('How many open reports this closed (the share\'s others included).') }),
    errors: { not_found: 'No report has that id.', invalid_argument: 'A hold or a file mark without resolved, a hold of a share that is gone, a file mark on a report naming no file (or one that is gone), or either without a reason.' },
    example: { status: 'resolved', hold: 'PROHIBITED', reason: 'Shared without the rights holder\'s consent.' },
  }),
  adminReportFromFeedback: route({
    method: 'POST',
    path: '/admin/v1/feedback/:id/report',
    tag,
    summary: 'Put a feedback message in the report queue',
    description:
      "A person's feedback message that reports a share (its link in the message or as the page it was sent from) becomes a report of that share, as if sent from the share page: the person as its reporter, their message as its words. It is then handled in the queue like any other. Recorded in the audit log.",
    auth: 'admin',
    params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
    body: Type.Object({ share_id: Type.String({ minLength: 1, maxLength: 64 }), reason: StringEnum(REPORT_REASONS) }),
    response: Type.Object({ id: Type.String({ description: 'The new report.' }) }),
    errors: { not_found: 'No feedback message has that id.', invalid_argument: 'The share does not exist, was deleted, or is not named by the message or its page.' },
    example: { share_id: 'k3jwqx2dp9vn8st1ayb7', reason: 'copyright' },
  }),
};
