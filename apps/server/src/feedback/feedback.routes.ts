/**
 * Feedback: the person's own routes (/v1/feedback…, signed in) and the operator's (/admin/v1/feedback…, behind the
 * console's one policy). A screenshot is only ever served to its author and to operators, as the picture it is.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONTRACT as C } from '@haul/shared';
import type { AppContext } from '../context.js';
import { requireAdmin } from '../admin/admin-policy.js';
import { requireAuth } from '../http/auth.js';
import { serve } from '../http/contract.js';
import { findFeedback, listFeedback, type FeedbackRow } from './feedback.repository.js';
import { presentFeedback, presentForOperator } from './feedback.presenter.js';
import { changeFeedback, feedbackNotFound, sendFeedback } from './feedback.service.js';

/** Room for a 5 MB screenshot in base64 and the message; a larger body is refused before it is read whole. */
const BODY_LIMIT = 8 * 1024 * 1024;

/** Sends a message's screenshot: its picture type, inline, never sniffed, never run as a page. */
async function sendScreenshot(ctx: AppContext, reply: FastifyReply, row: FeedbackRow | undefined): Promise<unknown> {
  if (!row?.screenshot_hash) throw feedbackNotFound('No message with a screenshot has that id.');
  const chunks: Buffer[] = [];
  for await (const c of ctx.blobs.read(row.screenshot_hash)) chunks.push(c as Buffer);
  return reply
    .header('Content-Type', row.screenshot_type)
    .header('Content-Disposition', 'inline')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', 'sandbox')
    .header('Cache-Control', 'private, max-age=3600')
    .send(Buffer.concat(chunks));
}

export async function feedbackRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    requireAuth(scope, ctx);
    serve(scope, C.sendFeedback, async (req) => presentFeedback(await sendFeedback(ctx, req.userId, req.body)), { bodyLimit: BODY_LIMIT });
    serve(scope, C.listFeedback, async (req) => {
      const page = await listFeedback(ctx.db, { userId: req.userId, limit: req.query.limit ?? 50, pageToken: req.query.page_token });
      return { feedback: page.rows.map(presentFeedback), next_page_token: page.nextPageToken };
    });
    // Another account's message answers exactly as one that does not exist.
    serve(scope, C.getFeedbackScreenshot, async (req, reply) => sendScreenshot(ctx, reply, await findFeedback(ctx.db, req.params.id, req.userId)));
  });
  await app.register(async (scope) => {
    requireAdmin(scope, ctx);
    serve(scope, C.adminListFeedback, async (req) => {
      const page = await listFeedback(ctx.db, { status: req.query.status, limit: req.query.limit ?? 50, pageToken: req.query.page_token });
      return { feedback: await presentForOperator(ctx.db, page.rows), next_page_token: page.nextPageToken };
    });
    serve(scope, C.adminGetFeedback, async (req) => {
      const row = await findFeedback(ctx.db, req.params.id);
      if (!row) throw feedbackNotFound();
      return (await presentForOperator(ctx.db, [row]))[0]!;
    });
    serve(scope, C.adminUpdateFeedback, async (req) => {
      const row = await changeFeedback(ctx, { id: req.userId, ip: req.ip }, req.params.id, req.body, req.log);
      return (await presentForOperator(ctx.db, [row]))[0]!;
    });
    serve(scope, C.adminGetFeedbackScreenshot, async (req, reply) => sendScreenshot(ctx, reply, await findFeedback(ctx.db, req.params.id)));
  });
}
