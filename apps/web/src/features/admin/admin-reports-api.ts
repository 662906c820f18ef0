/** The console's report calls, with query keys under ['admin'] (handling one refreshes the console at once). */
import type { ReportReason, ReportStatus, ShareReportSchema, Static } from '@haul/shared';
import { haul } from '../../lib/api-client';
import { ADMIN_KEY, PAGE_SIZE, type HoldStatus } from './admin-api';

export type ShareReport = Static<typeof ShareReportSchema>;
/** What the operator does with a report: close it (holding its share or not), dismiss it, or reopen it. */
export type ReportHandling = { status: ReportStatus; hold?: Exclude<HoldStatus, 'OK'>; mark_file?: boolean; reason?: string; note?: string };

export const reportsKey = (status: ReportStatus) => [...ADMIN_KEY, 'reports', status] as const;
/** The open count for the console's tab: its own key, still under ['admin'], so a handled report updates it. */
export const OPEN_REPORTS_KEY = [...ADMIN_KEY, 'reports-open-count'] as const;

/** A page of reports of one status, newest first. */
export const listReports = (status: ReportStatus, pageToken: string, signal?: AbortSignal) =>
  haul.call('adminListReports', { query: { status, limit: PAGE_SIZE, page_token: pageToken || undefined }, signal });

/** How many reports wait: the list's count, asked with the smallest page. */
export const openReportCount = async (signal?: AbortSignal): Promise<number> =>
  Number((await haul.call('adminListReports', { query: { status: 'open', limit: 1 }, signal })).open_count);

/** Handles a report; answers it as it now is and how many open reports that closed. */
export const handleReport = (id: string, handling: ReportHandling) => haul.call('adminHandleReport', { params: { id }, body: handling });

/** Marks a person's file not shareable (with the reason its owner reads), or gives it back. */
export const markFile = (id: string, sensitive: boolean, reason?: string) => haul.call('adminMarkFile', { params: { id }, body: { sensitive, ...(reason ? { reason } : {}) } });

/** A page of the reported share's files (or of a folder in it), with the operator's links to their bytes. */
export const reportFiles = (id: string, parentId: string, pageToken: string, signal?: AbortSignal) =>
  haul.call('adminReportFiles', { params: { id }, query: { parent_id: parentId || undefined, page_token: pageToken || undefined }, signal });
export type ReportFiles = Awaited<ReturnType<typeof reportFiles>>;
export type ReportFile = ReportFiles['files'][number];
export const reportFilesKey = (id: string, parentId: string) => [...ADMIN_KEY, 'report-files', id, parentId] as const;

/** A feedback message that names a share joins the report queue as that share's report. */
export const reportFromFeedback = (feedbackId: string, shareId: string, reason: ReportReason) =>
  haul.call('adminReportFromFeedback', { params: { id: feedbackId }, body: { share_id: shareId, reason } });
