/**
 * The operator's mark on one file: not shareable (`files.sensitive`), with a reason its owner reads in their security
 * log. Every share reads the flag at each visit (share-scope.ts: a shared item marked answers SENSITIVE_RESOURCE, one
 * inside a shared folder is hidden), and sharing it again is refused. The row's changed_time moves so the owner's
 * other devices sync the flag. Metadata only: the console never reads the file.
 */
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { recordAudit } from '../audit/audit.repository.js';
import { badInput, notFound } from '../http/errors.js';

export interface FileMark {
  sensitive: boolean;
  reason?: string;
}

/** Marks (or gives back) a file inside the caller's transaction; answers the file as it now is. */
export async function markFileIn(trx: Db, actor: { id: string; ip: string }, fileId: string, mark: FileMark, now: number) {
  const reason = (mark.reason ?? '').trim();
  if (mark.sensitive && !reason) throw badInput('Give the reason the owner reads.');
  const file = await trx.selectFrom('files').select(['id', 'user_id', 'name', 'sensitive']).where('id', '=', fileId).executeTakeFirst();
  if (!file) throw notFound('No file has that id.');
  const sensitive = mark.sensitive ? 1 : 0;
  if (file.sensitive !== sensitive) {
    await trx.updateTable('files').set({ sensitive, changed_time: now }).where('id', '=', file.id).where('user_id', '=', file.user_id).execute();
  }
  const details = { file_id: file.id, name: file.name, sensitive: { from: file.sensitive === 1, to: mark.sensitive }, ...(reason ? { reason } : {}) };
  await recordAudit(trx, { action: 'admin.file.marked', subjectId: file.user_id, actorId: actor.id, ip: actor.ip, details }, now);
  return { file_id: file.id, name: file.name, user_id: file.user_id, sensitive: mark.sensitive };
}

/** PATCH /admin/v1/files/:id. */
export function markFile(ctx: AppContext, actor: { id: string; ip: string }, fileId: string, mark: FileMark) {
  return ctx.db.transaction().execute((trx) => markFileIn(trx, actor, fileId, mark, ctx.clock.now()));
}
