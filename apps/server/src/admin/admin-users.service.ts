/**
 * Accounts as the operator sees them: listed and searched through indexes (newest first by the created-time page, or
 * by address prefix over the unique e-mail index), each with what it uses; and the changes an operator makes, each
 * recorded in the audit log in the same transaction.
 */
import { FILE_KIND, PHASE, SHARE_STATUS, type AdminUserSchema, type Static } from '@haul/shared';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { newestFirstPage } from '../db/newest-first.js';
import type { UserRow } from '../db/schema.js';
import { badInput, notFound } from '../http/errors.js';
import { decodePageToken, encodePageToken } from '../lib/page-token.js';
import { toRfc3339 } from '../lib/time.js';
import { endAllSessions } from '../accounts/tokens.js';
import { recordAudit } from '../audit/audit.repository.js';
import { storageUsage } from '../quotas/storage-room.js';
import { monthlyUsage } from '../quotas/traffic.js';

type AdminUser = Static<typeof AdminUserSchema>;

/** Storage each of `ids` takes (trash included), one grouped query for a page. */
async function usageOf(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('files')
    .select((eb) => ['user_id', eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('bytes')])
    .where('user_id', 'in', ids)
    .where('kind', '=', FILE_KIND)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.bytes)]));
}

function present(u: UserRow, usage: number): AdminUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    phone_number: u.phone_number ?? '',
    is_admin: u.is_admin === 1,
    disabled: u.disabled_at !== null,
    created_time: toRfc3339(u.created_at),
    storage_limit: String(u.storage_limit),
    storage_usage: String(usage),
    premium_expire_time: u.premium_expire ? toRfc3339(u.premium_expire) : '',
  };
}

/** Accounts newest first, or those whose address starts with `q` in address order (deleted ones are not listed). */
export async function listUsers(db: Db, q: { q?: string; limit: number; pageToken?: string }): Promise<{ users: AdminUser[]; next_page_token: string }> {
  const live = db.selectFrom('users').selectAll().where('deleted_at', 'is', null);
  let rows: UserRow[];
  let next = '';
  const prefix = q.q?.trim().toLowerCase();
  if (prefix) {
    // A range over the unique address index: what starts with the prefix, from the last address of the page before.
    let query = live.where('email', '>=', prefix).where('email', '<', `${prefix}\u{10ffff}`);
    if (q.pageToken) {
      const [email, id] = decodePageToken(q.pageToken, 'admin-users-q', ['string', 'string']) as [string, string];
      query = query.where((eb) => eb.or([eb('email', '>', email), eb.and([eb('email', '=', email), eb('id', '>', id)])]));
    }
    rows = await query.orderBy('email').orderBy('id').limit(q.limit + 1).execute();
    if (rows.length > q.limit) {
      rows.pop();
      const last = rows.at(-1)!;
      next = encodePageToken('admin-users-q', [last.email, last.id]);
    }
  } else {
    const page = await newestFirstPage(live, { listing: 'admin-users', column: 'created_at', limit: q.limit, pageToken: q.pageToken });
    rows = page.rows;
    next = page.nextPageToken;
  }
  const usage = await usageOf(db, rows.map((r) => r.id));
  return { users: rows.map((r) => present(r, usage.get(r.id) ?? 0)), next_page_token: next };
}

async function requireUser(db: Db, id: string): Promise<UserRow> {
  const u = await db.selectFrom('users').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!u) throw notFound('No account has that id.');
  return u;
}

const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }) => String(Number((await q.executeTakeFirstOrThrow()).n));

/** One account and what it uses. Metadata only. */
export async function userDetail(ctx: AppContext, id: string) {
  const db = ctx.db;
  const u = await requireUser(db, id);
  const [usage, files, shares, tasks, sessions, upload, cloud, download] = await Promise.all([
    storageUsage(db, id),
    count(db.selectFrom('files').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', id).where('kind', '=', FILE_KIND)),
    count(db.selectFrom('shares').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', id).where('status', '!=', SHARE_STATUS.DELETED)),
    count(db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', id).where('phase', 'in', [PHASE.PENDING, PHASE.RUNNING])),
    count(db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', id).where('expires_at', '>', ctx.clock.now())),
    monthlyUsage(ctx, id, 'upload'),
    monthlyUsage(ctx, id, 'offline'),
    monthlyUsage(ctx, id, 'download'),
  ]);
  return {
    user: present(u, usage.total),
    usage: { files, shares, tasks_running: tasks, sessions, transfer_month: { upload: String(upload), cloud_download: String(cloud), download: String(download) } },
  };
}

export interface AdminChange {
  disabled?: boolean;
  is_admin?: boolean;
  storage_limit?: string;
}

/** Applies an operator's change and records it (what each field was and became); the actor cannot lock themselves out. */
export async function updateUser(ctx: AppContext, actor: { id: string; ip: string }, id: string, change: AdminChange): Promise<AdminUser> {
  if (change.disabled === undefined && change.is_admin === undefined && change.storage_limit === undefined) throw badInput('Give disabled, is_admin or storage_limit.');
  const limit = change.storage_limit === undefined ? undefined : Number(change.storage_limit);
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) throw badInput('storage_limit must be a whole number of bytes, 0 or more.');
  if (id === actor.id && (change.disabled === true || change.is_admin === false)) throw badInput('An operator cannot disable or demote their own account.');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await requireUser(trx, id);
    const details: Record<string, { from: unknown; to: unknown }> = {};
    const set: { disabled_at?: number | null; is_admin?: number; storage_limit?: number } = {};
    if (change.disabled !== undefined && change.disabled !== (before.disabled_at !== null)) {
      set.disabled_at = change.disabled ? now : null;
      details.disabled = { from: before.disabled_at !== null, to: change.disabled };
    }
    if (change.is_admin !== undefined && change.is_admin !== (before.is_admin === 1)) {
      set.is_admin = change.is_admin ? 1 : 0;
      details.is_admin = { from: before.is_admin === 1, to: change.is_admin };
    }
    if (limit !== undefined && limit !== before.storage_limit) {
      set.storage_limit = limit;
      details.storage_limit = { from: String(before.storage_limit), to: String(limit) };
    }
    if (!Object.keys(set).length) return;
    await trx.updateTable('users').set(set).where('id', '=', id).execute();
    // A disabled account's tokens and links stop at once (its sessions go; tokens name their session).
    if (set.disabled_at) await endAllSessions(trx, id);
    await recordAudit(trx, { action: 'admin.user.updated', subjectId: id, actorId: actor.id, ip: actor.ip, details }, now);
  });
  const after = await requireUser(ctx.db, id);
  return present(after, (await storageUsage(ctx.db, id)).total);
}

/** Ends every session of the account (and the links it signed), recorded. */
export async function signOutUser(ctx: AppContext, actor: { id: string; ip: string }, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await requireUser(trx, id);
    await endAllSessions(trx, id);
    await recordAudit(trx, { action: 'admin.user.signed_out', subjectId: id, actorId: actor.id, ip: actor.ip }, ctx.clock.now());
  });
}
