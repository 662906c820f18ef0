/**
 * The one way an operator reads a person's files: those a report points at, while it is open. The report's share is
 * listed as its visitors see it, less the pass code and with files marked not shareable still there, and each file
 * gets a link of the operator's own (signed for operator, report and file, short-lived) that nobody's allowance pays
 * for and that leaves nothing in the owner's Recent. Each listing is an audit event with the owner as its subject, so
 * the owner's security log says their shared files were looked at, and why.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { FOLDER_KIND, PHASE, SHARE_STATUS } from '@haul/shared';
import type { AppContext } from '../context.js';
import { recordAudit } from '../audit/audit.repository.js';
import type { FileRow, ShareRow } from '../db/schema.js';
import { listFilesPage } from '../files/list-query.js';
import { presentBreadcrumb } from '../files/files.presenter.js';
import { publicUrl } from '../http/public-url.js';
import { badInput, HttpError } from '../http/errors.js';
import { requireInShare } from './share-scope.js';
import { findShare, liveShareRoots, shareRootIds } from './shares.repository.js';

/** What the operator may look at: anything finished and not in the trash, marked not shareable or not. */
const reviewable = (r: FileRow) => !r.trashed && r.phase === PHASE.COMPLETE;
const PAGE = 100;
/** Long enough to watch a reported video through; the report's being open is checked at every request anyway. */
const LINK_SECONDS = 3600;

interface Actor {
  id: string;
  ip: string;
}

async function openReport(ctx: AppContext, reportId: string): Promise<{ report: { id: string; owner_id: string; file_id: string }; share: ShareRow }> {
  const report = await ctx.db.selectFrom('share_reports').select(['id', 'owner_id', 'file_id', 'status', 'share_id']).where('id', '=', reportId).executeTakeFirst();
  if (!report) throw new HttpError(404, 'not_found', 'No report has that id.');
  if (report.status !== 'open') throw new HttpError(409, 'failed_precondition', 'The report is closed: its files are no longer open to the console. Reopen it to look again.');
  const share = await findShare(ctx.db, report.share_id);
  if (!share || share.status === SHARE_STATUS.DELETED || share.user_id !== report.owner_id) {
    throw new HttpError(409, 'failed_precondition', 'The reported share is gone: there is nothing left to look at.');
  }
  return { report, share };
}

const mac = (ctx: AppContext, operatorId: string, reportId: string, fileId: string, expires: number) =>
  createHmac('sha256', ctx.secrets.linkKey).update(`report-content.${operatorId}.${reportId}.${fileId}.${expires}`).digest('base64url');

function contentLink(ctx: AppContext, operatorId: string, reportId: string, fileId: string): string {
  const expires = Math.floor(ctx.clock.now() / 1000) + LINK_SECONDS;
  const query = new URLSearchParams({ r: reportId, o: operatorId, e: String(expires), s: mac(ctx, operatorId, reportId, fileId, expires) });
  return `${publicUrl(ctx)}/admin/v1/report-content/${encodeURIComponent(fileId)}?${query}`;
}

const present = (ctx: AppContext, operatorId: string, reportId: string) => (r: FileRow) => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  size: String(r.size),
  mime_type: r.mime_type,
  sensitive: !!r.sensitive,
  link: r.kind === FOLDER_KIND ? '' : contentLink(ctx, operatorId, reportId, r.id),
});

/** GET /admin/v1/reports/:id/files */
export async function reportFiles(ctx: AppContext, actor: Actor, reportId: string, q: { parentId?: string; pageToken?: string }) {
  const { report, share } = await openReport(ctx, reportId);
  const shown = present(ctx, actor.id, report.id);
  let files: FileRow[];
  let ancestors: { id: string; name: string }[] = [];
  let next = '';
  if (q.parentId) {
    const { file, chain } = await requireInShare(ctx.db, share, q.parentId, undefined, reviewable);
    if (file.kind !== FOLDER_KIND) throw badInput('parent_id is not a folder.');
    const page = await listFilesPage(ctx, { userId: share.user_id, parentId: file.id, filters: { trashed: false, phases: [PHASE.COMPLETE] }, order: 'NAME_ASC', limit: PAGE, pageToken: q.pageToken });
    files = page.rows;
    next = page.nextPageToken;
    ancestors = chain.map((r) => ({ id: r.id, name: presentBreadcrumb(r).name }));
  } else {
    files = await liveShareRoots(ctx.db, share);
  }
  await recordAudit(ctx.db, { action: 'admin.report.viewed', subjectId: report.owner_id, actorId: actor.id, ip: actor.ip, details: { report_id: report.id, share_id: share.id, ...(q.parentId ? { folder_id: q.parentId } : {}) } }, ctx.clock.now());
  return { share_id: share.id, title: share.title, pass_code: share.pass_code !== '', ancestors, files: files.map(shown), next_page_token: next };
}

/**
 * GET /admin/v1/report-content/:id: the file when the link holds (signature, expiry), its operator is still one, the
 * report is still open and the file is still in the share; null otherwise (answered as a gone link).
 */
export async function reportContentFile(ctx: AppContext, fileId: string, q: { r?: string; o?: string; e?: string; s?: string }): Promise<FileRow | null> {
  if (!q.r || !q.o || !q.s || !q.e || !/^\d{1,12}$/.test(q.e)) return null;
  const expires = Number(q.e);
  if (expires * 1000 <= ctx.clock.now()) return null;
  const expected = Buffer.from(mac(ctx, q.o, q.r, fileId, expires));
  const given = Buffer.from(q.s);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const operator = await ctx.db.selectFrom('users').select('is_admin').where('id', '=', q.o).where('disabled_at', 'is', null).where('deleted_at', 'is', null).executeTakeFirst();
  if (operator?.is_admin !== 1) return null;
  try {
    const { share } = await openReport(ctx, q.r);
    const { file } = await requireInShare(ctx.db, share, fileId, await shareRootIds(ctx.db, share.id), reviewable);
    return file.kind === FOLDER_KIND || !file.hash ? null : file;
  } catch {
    return null;
  }
}
