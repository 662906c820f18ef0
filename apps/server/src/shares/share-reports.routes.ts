/**
 * Reports of shares: the visitor's call (public, the share's own access rules), the operator's queue (behind the
 * console's one policy), and the reported files the operator may look at (report-content.ts).
 */
import type { FastifyInstance } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAdmin } from '../admin/admin-policy.js';
import { optionalUserId } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { newestFirstPage } from '../db/newest-first.js';
import { PassCodeGuard } from './pass-code-guard.js';
import { presentReports } from './share-reports.presenter.js';
import { handleReport, reportFromFeedback, reportShare } from './share-reports.service.js';
import { markFile } from '../admin/admin-files.service.js';
import { sendFileBytes, sendGone } from '../downloads/send-file.js';
import { reportContentFile, reportFiles } from './report-content.js';

export async function shareReportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = new PassCodeGuard(ctx);
  // The operator's link to a reported file's bytes: the signature and the open report are the permission.
  serve(app, C.adminReportContent, async (req, reply) => {
    const file = await reportContentFile(ctx, req.params.id, req.query);
    return file ? sendFileBytes(ctx, req, reply, file, '') : sendGone(reply);
  });
  serve(app, C.reportShare, async (req) => {
    const { share_id, pass_code_token, ...report } = req.body;
    return reportShare(ctx, guard, { shareId: share_id, token: pass_code_token, callerId: await optionalUserId(ctx, req), address: req.ip }, report);
  });
  await app.register(async (scope) => {
    requireAdmin(scope, ctx);
    serve(scope, C.adminListReports, async (req) => {
      let q = ctx.db.selectFrom('share_reports').selectAll();
      if (req.query.status) q = q.where('status', '=', req.query.status);
      const [page, open] = await Promise.all([
        newestFirstPage(q, { listing: 'reports', column: 'created_at', limit: req.query.limit ?? 50, pageToken: req.query.page_token }),
        ctx.db.selectFrom('share_reports').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'open').executeTakeFirstOrThrow(),
      ]);
      return { reports: await presentReports(ctx, page.rows), next_page_token: page.nextPageToken, open_count: String(open.n) };
    });
    serve(scope, C.adminReportFiles, (req) => reportFiles(ctx, { id: req.userId, ip: req.ip }, req.params.id, { parentId: req.query.parent_id, pageToken: req.query.page_token }));
    serve(scope, C.adminReportFromFeedback, (req) => reportFromFeedback(ctx, { id: req.userId, ip: req.ip }, req.params.id, req.body));
    serve(scope, C.adminMarkFile, (req) => markFile(ctx, { id: req.userId, ip: req.ip }, req.params.id, req.body));
    serve(scope, C.adminHandleReport, async (req) => {
      const { row, closed } = await handleReport(ctx, { id: req.userId, ip: req.ip }, req.params.id, req.body);
      return { report: (await presentReports(ctx, [row]))[0]!, closed: String(closed) };
    });
  });
}
