/**
 * What an operator may read of a person's files: only what a report points at. The files of a reported share (a pass
 * code does not stand in the way), listed while the report is open, each with a short link to its bytes for the
 * operator's review; every look is in the audit log. Nothing else in the console reads a file.
 */
import { Type } from '@sinclair/typebox';
import { route } from './define.js';

const tag = 'Share reports';

export const ReportFileSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Type.String({ description: 'drive#file or drive#folder.' }),
  size: Type.String({ description: 'Bytes, as a decimal string.' }),
  mime_type: Type.String(),
  sensitive: Type.Boolean({ description: 'Marked not shareable (its visitors no longer see it; the operator still does).' }),
  link: Type.String({ description: "The operator's link to its bytes, valid a short time; '' for a folder." }),
});

export const reportContentRoutes = {
  adminReportFiles: route({
    method: 'GET',
    path: '/admin/v1/reports/:id/files',
    tag,
    summary: "A reported share's files",
    description:
      "The items of the report's share, or of a folder inside it (`parent_id`), a page at a time, each file with a link to its bytes for the operator to look at; a pass code does not stand in the way, and a file marked not shareable is still listed. Only while the report is open. Recorded in the audit log (admin.report.viewed).",
    auth: 'admin',
    params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
    query: Type.Object({
      parent_id: Type.Optional(Type.String({ maxLength: 100, description: 'A folder inside the share.' })),
      page_token: Type.Optional(Type.String({ maxLength: 2000 })),
    }),
    response: Type.Object({
      share_id: Type.String(),
      title: Type.String(),
      pass_code: Type.Boolean({ description: 'The share asks its visitors for a pass code.' }),
      ancestors: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), { description: 'From the shared item down to parent_id.' }),
      files: Type.Array(ReportFileSchema),
      next_page_token: Type.String(),
    }),
    errors: {
      not_found: 'No report has that id.',
      failed_precondition: 'The report is closed, or its share is gone: its files are no longer open to the operator.',
      file_not_found: 'parent_id is not a folder inside the share.',
    },
  }),
  adminReportContent: route({
    method: 'GET',
    path: '/admin/v1/report-content/:id',
    tag,
    summary: "A reported file's bytes",
    description:
      "The target of a file's link in the list above: its bytes as an attachment, for the operator the link was made for, while the report is open. Nobody's download allowance pays, and nothing is recorded in the owner's Recent. Range works as for any download.",
    auth: 'signed-link',
    params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
    query: Type.Object({
      r: Type.Optional(Type.String({ maxLength: 100, description: 'The report.' })),
      o: Type.Optional(Type.String({ maxLength: 128, description: 'The operator the link was made for.' })),
      e: Type.Optional(Type.String({ maxLength: 20, description: 'When the link expires: Unix time in seconds.' })),
      s: Type.Optional(Type.String({ maxLength: 128, description: 'The signature.' })),
    }),
    response: { raw: true, types: ['application/octet-stream', '*/*'], description: "The file's bytes (or the asked range) as an attachment." },
    errors: {
      file_not_found: 'The link is malformed, tampered with or expired, the report was closed, the operator is one no more, or the file left the share.',
      invalid_argument: { status: [400, 416], when: 'A query field is too long (400); the Range asks only for bytes past the end (416).' },
    },
  }),
};
