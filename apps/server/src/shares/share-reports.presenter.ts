/** Report rows → the operator's view: each with its share, owner, item and reporter, read in a few queries a page. */
import { SHARE_STATUS, type ReportReason, type ReportStatus, type ShareReportSchema, type Static } from '@haul/shared';
import type { AppContext } from '../context.js';
import { toRfc3339 } from '../lib/time.js';
import { linkStatus } from './share-scope.js';
import type { ShareReportRow } from './share-reports.service.js';

type ShareReport = Static<typeof ShareReportSchema>;

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

export async function presentReports(ctx: AppContext, rows: ShareReportRow[]): Promise<ShareReport[]> {
  if (!rows.length) return [];
  const db = ctx.db;
  const shareIds = [...new Set(rows.map((r) => r.share_id))];
  const userIds = [...new Set(rows.flatMap((r) => [r.owner_id, r.reporter_id]).filter(Boolean))];
  const fileIds = [...new Set(rows.map((r) => r.file_id).filter(Boolean))];
  const [shares, users, files, open] = await Promise.all([
    db.selectFrom('shares').selectAll().where('id', 'in', shareIds).execute(),
    db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds.length ? userIds : ['']).where('deleted_at', 'is', null).execute(),
    db.selectFrom('files').select(['id', 'user_id', 'name', 'sensitive']).where('id', 'in', fileIds.length ? fileIds : ['']).execute(),
    db.selectFrom('share_reports').select('share_id').select((eb) => eb.fn.countAll<string>().as('n')).where('share_id', 'in', shareIds).where('status', '=', 'open').groupBy('share_id').execute(),
  ]);
  const shareOf = byId(shares);
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const openOf = new Map(open.map((o) => [o.share_id, Number(o.n)]));
  const now = ctx.clock.now();
  return rows.map((r) => {
    const share = shareOf.get(r.share_id);
    // A file id names a row of the owner's drive only: an id that now belongs to another account's file says nothing.
    const file = files.find((f) => f.id === r.file_id && f.user_id === r.owner_id);
    return {
      id: r.id,
      share_id: r.share_id,
      share_title: share && share.status !== SHARE_STATUS.DELETED ? share.title : '',
      share_status: share ? linkStatus(share, now) : SHARE_STATUS.DELETED,
      owner_id: r.owner_id,
      owner_email: emailOf.get(r.owner_id) ?? '',
      file_id: r.file_id,
      file_name: file?.name ?? '',
      file_sensitive: file?.sensitive === 1,
      reason: r.reason as ReportReason,
      message: r.message,
      reporter_email: r.reporter_id ? (emailOf.get(r.reporter_id) ?? '') : '',
      status: r.status as ReportStatus,
      note: r.note,
      handled_time: r.handled_at === null ? '' : toRfc3339(r.handled_at),
      created_time: toRfc3339(r.created_at),
      open_reports: String(r.status === 'open' ? (openOf.get(r.share_id) ?? 0) : 0),
    };
  });
}
